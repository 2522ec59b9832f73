import { useId, type ReactNode } from "react";

/** The ids and ARIA attributes a Field's control takes. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/**
 * A form field: label, control, hint and error, wired together (the label names the control, the
 * hint and the error describe it). `children` renders the control with the props it is given.
 */
export function Field({
  label,
  hint,
  error,
  errorRole,
  className = "space-y-1",
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** "alert" when the error appears without the person moving to the field. */
  errorRole?: "alert";
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : null;
  const errorId = error ? `${id}-error` : null;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint ? (
        <p id={hintId!} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId!} className="field-error" role={errorRole}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
