"use client";

import type { FieldControlProps } from "@/components/ui/field";

/** The viewer's own time zone, as the browser says it. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * A time zone picker: every IANA zone the runtime knows (with `zone` first if it knows it not),
 * `zone` chosen; a Field's control.
 */
export function TimeZoneSelect({
  control,
  name,
  zone,
}: {
  control: FieldControlProps;
  name: string;
  zone: string;
}) {
  const zones = Intl.supportedValuesOf("timeZone");
  return (
    <select {...control} name={name} defaultValue={zone} className="field-select w-full">
      {(zones.includes(zone) ? zones : [zone, ...zones]).map((value) => (
        <option key={value} value={value}>
          {value.replaceAll("_", " ")}
        </option>
      ))}
    </select>
  );
}
