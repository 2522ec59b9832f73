/**
 * Shared class names, so controls look and behave alike everywhere. The styles behind them are
 * component classes in app/globals.css: in CSS, not in the page's JavaScript (issue 6 budgets it).
 */

export const buttonStyles = {
  primary: "btn btn-primary",
  secondary: "btn btn-secondary",
  small: "btn btn-small",
  link: "btn-link",
} as const;

export const inputStyles = "field-input";
export const selectStyles = "field-select";
export const labelStyles = "field-label";
export const hintStyles = "field-hint";
export const fieldErrorStyles = "field-error";
export const cardStyles = "card";
