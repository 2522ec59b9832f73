/** Shared class names, so controls look and behave alike everywhere. */

const base =
  "inline-flex items-center justify-center gap-1.5 rounded-md text-sm font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-55";

export const buttonStyles = {
  primary: `${base} bg-blue-700 px-3 py-1.5 text-white hover:bg-blue-800 dark:bg-blue-500 dark:text-zinc-950 dark:hover:bg-blue-400`,
  secondary: `${base} border border-zinc-300 bg-white px-3 py-1.5 text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800`,
  small: `${base} border border-zinc-300 bg-white px-2 py-0.5 text-xs text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800`,
  link: "rounded-sm font-medium text-blue-700 underline-offset-2 hover:underline dark:text-blue-400",
} as const;

export const inputStyles =
  "block w-full rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm text-zinc-900 placeholder:text-zinc-500 aria-[invalid=true]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400 dark:aria-[invalid=true]:border-red-400";

export const selectStyles =
  "rounded-md border border-zinc-300 bg-white py-1 pr-7 pl-2 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

export const labelStyles = "block text-sm font-medium text-zinc-800 dark:text-zinc-200";
export const hintStyles = "text-xs text-zinc-600 dark:text-zinc-400";
export const fieldErrorStyles = "text-xs font-medium text-red-700 dark:text-red-400";

export const cardStyles = "rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900/60";
