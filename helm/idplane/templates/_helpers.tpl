{{/* Names, labels and shared snippets of the idplane chart. */}}

{{- define "idplane.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "idplane.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "idplane.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object; pass a dict with "root" and "component". */}}
{{- define "idplane.labels" -}}
helm.sh/chart: {{ include "idplane.chart" .root }}
{{ include "idplane.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: idplane
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "idplane.selectorLabels" -}}
app.kubernetes.io/name: {{ include "idplane.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "idplane.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "idplane.agentImage" -}}
{{- default (include "idplane.image" .) .Values.agents.image }}
{{- end }}

{{- define "idplane.agentNamespace" -}}
{{- default .Release.Namespace .Values.agents.namespace }}
{{- end }}

{{- define "idplane.apiServiceAccountName" -}}
{{- if .Values.api.serviceAccount.create }}
{{- default (printf "%s-api" (include "idplane.fullname" .)) .Values.api.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.api.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "idplane.operatorServiceAccountName" -}}
{{- if .Values.operator.serviceAccount.create }}
{{- default (printf "%s-operator" (include "idplane.fullname" .)) .Values.operator.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.operator.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "idplane.leaseName" -}}
{{- default (printf "%s-operator" (include "idplane.fullname" .)) .Values.operator.leaderElection.leaseName }}
{{- end }}

{{/* The Secret the API reads its secret env from: the user's, or the one this chart renders. */}}
{{- define "idplane.secretName" -}}
{{- default (include "idplane.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{- define "idplane.apiUrl" -}}
{{- printf "http://%s-api.%s.svc:%v" (include "idplane.fullname" .) .Release.Namespace .Values.api.service.port }}
{{- end }}

{{- define "idplane.publicUrl" -}}
{{- if .Values.config.publicUrl }}
{{- .Values.config.publicUrl | trimSuffix "/" }}
{{- else if and .Values.api.ingress.enabled .Values.api.ingress.hosts }}
{{- $host := (first .Values.api.ingress.hosts).host }}
{{- $tls := false }}
{{- range .Values.api.ingress.tls }}{{ if has $host .hosts }}{{ $tls = true }}{{ end }}{{ end }}
{{- printf "%s://%s" (ternary "https" "http" $tls) $host }}
{{- else }}
{{- include "idplane.apiUrl" . }}
{{- end }}
{{- end }}

{{/*
A password kept across upgrades: the value given, else the one already in the Secret, else a new random one.
Pass a dict with "root", "secret" (name), "key" and "value".
*/}}
{{- define "idplane.persistentPassword" -}}
{{- if .value }}
{{- .value }}
{{- else }}
{{- $existing := lookup "v1" "Secret" .root.Release.Namespace .secret }}
{{- if and $existing (hasKey $existing.data .key) }}
{{- index $existing.data .key | b64dec }}
{{- else }}
{{- randAlphaNum 32 }}
{{- end }}
{{- end }}
{{- end }}

{{/* Rules a schema cannot express; they stop the render with a message that says what to change. */}}
{{- define "idplane.validate" -}}
{{- $s := .Values.secrets }}
{{- if and $s.existingSecret (or $s.databaseUrl $s.amqpUrl $s.smtpUrl $s.jwtPrivateKey $s.jwtPublicKey $s.secretsEncryptionKey) }}
{{- fail "secrets.existingSecret is set: leave secrets.databaseUrl, amqpUrl, smtpUrl, jwtPrivateKey, jwtPublicKey and secretsEncryptionKey empty and put them in that Secret" }}
{{- end }}
{{- if and .Values.postgresql.enabled $s.databaseUrl }}
{{- fail "postgresql.enabled and secrets.databaseUrl are both set: choose one database" }}
{{- end }}
{{- if and .Values.rabbitmq.enabled $s.amqpUrl }}
{{- fail "rabbitmq.enabled and secrets.amqpUrl are both set: choose one broker" }}
{{- end }}
{{- if ne (empty $s.jwtPrivateKey) (empty $s.jwtPublicKey) }}
{{- fail "secrets.jwtPrivateKey and secrets.jwtPublicKey must be set together" }}
{{- end }}
{{- $scaled := or .Values.api.autoscaling.enabled (gt (int .Values.api.replicaCount) 1) }}
{{- if and $scaled (not $s.existingSecret) }}
{{- if not (or $s.databaseUrl .Values.postgresql.enabled) }}
{{- fail "more than one API replica needs a shared database: set secrets.databaseUrl, secrets.existingSecret or postgresql.enabled" }}
{{- end }}
{{- if not $s.jwtPrivateKey }}
{{- fail "more than one API replica needs shared JWT keys: set secrets.jwtPrivateKey/jwtPublicKey or secrets.existingSecret" }}
{{- end }}
{{- end }}
{{- end }}

{{/* What the API puts in the OrgAgents it creates: where agents run and which image they use. */}}
{{- define "idplane.agentEnv" -}}
- name: AGENT_NAMESPACE
  value: {{ include "idplane.agentNamespace" . | quote }}
- name: AGENT_IMAGE
  value: {{ include "idplane.agentImage" . | quote }}
- name: AGENT_IMAGE_PULL_POLICY
  value: {{ .Values.agents.imagePullPolicy | quote }}
{{- end }}
