import type { InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

interface FieldProps {
  name: string;
  label: string;
  hint?: string;
  error?: string;
  type?: 'text' | 'url' | 'password' | 'number';
  min?: number;
  value: string;
  onInput: (value: string) => void;
}

/** A labelled input with its hint and, when invalid, its error, both announced with it. */
export function Field({ name, label, hint, error, type = 'text', min, value, onInput }: FieldProps) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field" data-invalid={Boolean(error)}>
      <label for={id}>{label}</label>
      <input
        {...({ type, min } as InputHTMLAttributes<HTMLInputElement>)}
        id={id}
        name={name}
        value={value}
        autocomplete="off"
        spellcheck={false}
        aria-invalid={Boolean(error)}
        aria-describedby={described}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

interface CheckProps {
  name: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** A checkbox with its label around it. */
export function Check({ name, label, checked, onChange }: CheckProps) {
  return (
    <label class="check">
      <input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      {label}
    </label>
  );
}
