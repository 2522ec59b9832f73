import type { ComponentProps } from "react";
import { Field } from "@/components/ui/field";

/** The field an API key is typed into: masked, named `apiKey`, neither autofilled nor spell-checked. */
export function ApiKeyField({
  required,
  ...field
}: Omit<ComponentProps<typeof Field>, "children"> & { required?: boolean }) {
  return (
    <Field {...field}>
      {(control) => (
        <input
          {...control}
          name="apiKey"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required={required}
          className="field-input font-mono"
        />
      )}
    </Field>
  );
}
