import type { ReactNode } from "react";

const labelStyles = {
  plain: "text-xs text-zinc-600 dark:text-zinc-400",
  strong: "text-xs font-medium text-zinc-600 dark:text-zinc-400",
  caps: "text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400",
} as const;

/** One term of a `<dl>`: a small label over its value. */
export function DescriptionItem({
  label,
  children,
  labelStyle = "plain",
  valueClassName = "",
  className = "",
}: {
  label: ReactNode;
  children: ReactNode;
  labelStyle?: keyof typeof labelStyles;
  valueClassName?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <dt className={labelStyles[labelStyle]}>{label}</dt>
      <dd className={valueClassName}>{children}</dd>
    </div>
  );
}
