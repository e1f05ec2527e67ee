import type { ComponentChildren } from 'preact';

interface FieldProps {
  id: string;
  label: string;
  /** The API's message about this field, shown under it and announced with it. */
  error?: string | undefined;
  hint?: string;
}

/** A label, the control it names, and the field's error, tied together for screen readers. */
function Field({ id, label, error, hint, children }: FieldProps & { children: ComponentChildren }) {
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <small id={`${id}-hint`} class="field-hint">
          {hint}
        </small>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = ({ id, error, hint }: FieldProps) =>
  [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

export function TextField(
  props: FieldProps & {
    value: string;
    onInput(value: string): void;
    type?: 'text' | 'password';
    inputMode?: 'numeric' | 'decimal' | 'text';
    required?: boolean;
    maxLength?: number;
    placeholder?: string;
    autoComplete?: string;
  },
) {
  // Preact's types pair each input type with the roles it may take; these two take the same attributes.
  const type = (props.type ?? 'text') as 'text';
  return (
    <Field {...props}>
      <input
        id={props.id}
        name={props.id}
        type={type}
        value={props.value}
        inputMode={props.inputMode}
        required={props.required}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete ?? 'off'}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy(props)}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </Field>
  );
}

export function SelectField(
  props: FieldProps & { value: string; onChange(value: string): void; options: { value: string; label: string }[] },
) {
  return (
    <Field {...props}>
      <select
        id={props.id}
        name={props.id}
        value={props.value}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy(props)}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
