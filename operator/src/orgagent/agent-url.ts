/** The controller endpoint: OPERATOR_AGENT_URL_TEMPLATE with the agent's Service, namespace and admin port. */
export function agentUrl(
  template: string,
  values: { service: string; namespace: string; name: string; adminPort: number },
): string {
  return template
    .replaceAll('{service}', values.service)
    .replaceAll('{namespace}', values.namespace)
    .replaceAll('{name}', values.name)
    .replaceAll('{adminPort}', String(values.adminPort))
    .replace(/\/$/, '')
}
