import { Fragment, type ButtonHTMLAttributes, type ComponentChildren } from 'preact'
import { useEffect, useId, useRef, useState } from 'preact/hooks'
import { hrefOf, onLinkClick } from '../router'
import type { Action } from './hooks'

export function Link(props: { to: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a
      href={hrefOf(props.to)}
      class={props.class}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => onLinkClick(event, props.to)}
    >
      {props.children}
    </a>
  )
}

/** A page: its heading (focused on arrival, so screen readers announce the new page), a lead and actions. */
export function Page(props: {
  title: string
  lead?: ComponentChildren
  actions?: ComponentChildren
  children?: ComponentChildren
}) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${props.title} · idplane console`
    heading.current?.focus({ preventScroll: true })
  }, [props.title])
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <div>
          <h1 id="page-title" ref={heading} tabIndex={-1}>
            {props.title}
          </h1>
          {props.lead && <p class="lead">{props.lead}</p>}
        </div>
        {props.actions && <div class="actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  )
}

export function Section(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const id = useId()
  return (
    <section class="card" aria-labelledby={id}>
      <div class="card-head">
        <h2 id={id}>{props.title}</h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  )
}

export function Notice(props: { kind?: 'error' | 'info' | 'success'; children: ComponentChildren }) {
  const kind = props.kind ?? 'info'
  return (
    <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  )
}

/** The outcome of an action: its error (the API's message) or its success message. */
export function ActionResult(props: { action: Action }) {
  if (props.action.error) return <Notice kind="error">{props.action.error}</Notice>
  if (props.action.message) return <Notice kind="success">{props.action.message}</Notice>
  return null
}

/** What a list shows when it has nothing yet: what it is for and what to do next. */
export function Empty(props: { children: ComponentChildren }) {
  return <div class="empty">{props.children}</div>
}

export function Loading(props: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {props.label ?? 'Loading…'}
    </p>
  )
}

/** Loading, error, or the content once data is there. */
export function Loaded<T>(props: {
  state: { data: T | undefined; error: string | undefined; isLoading: boolean }
  children: (data: T) => ComponentChildren
}) {
  const { data, error, isLoading } = props.state
  return (
    <>
      {error && <Notice kind="error">{error}</Notice>}
      {data === undefined ? isLoading ? <Loading /> : null : props.children(data)}
    </>
  )
}

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'disabled'> & {
  busy?: boolean
  kind?: 'primary' | 'secondary' | 'danger'
  type?: 'button' | 'submit'
  disabled?: boolean
}

export function Button({ busy, kind = 'secondary', children, disabled, type = 'button', ...rest }: ButtonProps) {
  return (
    <button {...rest} type={type} class={`button ${kind}`} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  )
}

interface FieldProps {
  label: string
  value: string
  onValue: (value: string) => void
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'date' | 'datetime-local'
  required?: boolean
  hint?: ComponentChildren
  autoComplete?: string
  name?: string
  placeholder?: string
  inputMode?: 'numeric' | 'decimal' | 'email' | 'text'
  pattern?: string
  min?: string
  max?: string
  step?: string
}

export function TextField(props: FieldProps) {
  const id = useId()
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {props.required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        name={props.name}
        // Preact 11 types each input type with its own attributes; these text-like ones all take the ones given here.
        {...({ type: props.type ?? 'text' } as { type: 'text' })}
        value={props.value}
        required={props.required}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        inputMode={props.inputMode}
        pattern={props.pattern}
        min={props.min}
        max={props.max}
        step={props.step}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onInput={(event) => props.onValue(event.currentTarget.value)}
      />
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  )
}

export function TextArea(props: Omit<FieldProps, 'type'> & { rows?: number; mono?: boolean }) {
  const id = useId()
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {props.required && <span aria-hidden="true"> *</span>}
      </label>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 4}
        class={props.mono ? 'mono' : undefined}
        value={props.value}
        required={props.required}
        placeholder={props.placeholder}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onInput={(event) => props.onValue(event.currentTarget.value)}
      />
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  )
}

export function SelectField<T extends string>(props: {
  label: string
  value: T
  onValue: (value: T) => void
  options: readonly (T | { value: T; label: string })[]
  hint?: ComponentChildren
  required?: boolean
}) {
  const id = useId()
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        required={props.required}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onValue(event.currentTarget.value as T)}
      >
        {props.options.map((option) => {
          const { value, label } = typeof option === 'string' ? { value: option, label: option } : option
          return (
            <option key={value} value={value}>
              {label}
            </option>
          )
        })}
      </select>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  )
}

export function CheckboxField(props: {
  label: string
  checked: boolean
  onChecked: (checked: boolean) => void
  hint?: string
}) {
  const id = useId()
  return (
    <div class="field checkbox">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChecked(event.currentTarget.checked)}
      />
      <label for={id}>{props.label}</label>
      {props.hint && <p class="hint">{props.hint}</p>}
    </div>
  )
}

/** A value to copy (an invitation link): shown in full, selectable, with a copy button that says when it worked. */
export function CopyField(props: { label: string; value: string }) {
  const id = useId()
  const [copied, setCopied] = useState<string | undefined>(undefined)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value)
      setCopied('Copied')
    } catch {
      setCopied('Copying is not allowed here: select the text and copy it')
    }
  }
  return (
    <div class="field copy">
      <label for={id}>{props.label}</label>
      <div class="copy-row">
        <input id={id} readOnly value={props.value} onFocus={(event) => event.currentTarget.select()} />
        <Button onClick={copy}>Copy</Button>
      </div>
      <p class="hint" role="status">
        {copied}
      </p>
    </div>
  )
}

const TERMINAL_GOOD = [
  'done',
  'completed',
  'created',
  'DID_CREATED',
  'delivered',
  'accepted',
  'ACCEPTED',
  'sent',
  'verified',
]
const TERMINAL_BAD = ['abandoned', 'declined', 'failed', 'FAILED', 'dead', 'rejected', 'REJECTED', 'invalid']

/** A record's state as a badge (with text, never colour alone). */
export function StateBadge(props: { state: string }) {
  const tone = TERMINAL_GOOD.includes(props.state) ? 'good' : TERMINAL_BAD.includes(props.state) ? 'bad' : 'pending'
  return <span class={`badge ${tone}`}>{props.state}</span>
}

export function isFinalState(state: string): boolean {
  return TERMINAL_GOOD.includes(state) || TERMINAL_BAD.includes(state)
}

/** The steps of a long action, the current one marked, so progress is visible (and announced). */
export function Steps(props: { steps: readonly string[]; current: number; failed?: string | null }) {
  return (
    <div>
      <ol class="steps" aria-label="Progress">
        {props.steps.map((step, index) => {
          const status =
            index < props.current ? 'done' : index === props.current ? (props.failed ? 'failed' : 'current') : 'todo'
          return (
            <li key={step} class={status} aria-current={status === 'current' ? 'step' : undefined}>
              <span class="visually-hidden">
                {status === 'done'
                  ? 'Done: '
                  : status === 'failed'
                    ? 'Failed: '
                    : status === 'current'
                      ? 'In progress: '
                      : 'To do: '}
              </span>
              {step}
            </li>
          )
        })}
      </ol>
      {props.failed && <Notice kind="error">{props.failed}</Notice>}
    </div>
  )
}

export function ProgressBar(props: { label: string; value: number; max: number }) {
  const id = useId()
  return (
    <div class="progress">
      <label for={id}>
        {props.label}: {props.value} of {props.max}
      </label>
      <progress id={id} value={props.value} max={Math.max(props.max, 1)} />
    </div>
  )
}

export function formatTime(value: string | null | undefined): string {
  if (!value) return '—'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString()
}

/** A short form of a long id for tables (the full id is in the title and the detail page). */
export function ShortId(props: { id: string | null | undefined }) {
  if (!props.id) return <span>—</span>
  return (
    <code title={props.id} class="short-id">
      {props.id.length > 14 ? `${props.id.slice(0, 8)}…${props.id.slice(-4)}` : props.id}
    </code>
  )
}

export function Json(props: { value: unknown; label: string }) {
  return (
    <details class="json">
      <summary>{props.label}</summary>
      <pre tabIndex={0}>{JSON.stringify(props.value, null, 2)}</pre>
    </details>
  )
}

/** Name–value pairs as a description list. */
export function FactList(props: { entries: [string, string][] }) {
  return (
    <dl class="facts">
      {props.entries.map(([name, value], index) => (
        <Fragment key={`${index}-${name}`}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  )
}
