"use client";

import dynamic from "next/dynamic";

/*
 * Parts of a webhook's page that only some pages show, each a chunk of its own (next/dynamic, from
 * the browser's side: a dynamic import made by a server component does not split the page's
 * code): a page loads one only when it shows it. The delivery dialog is not one of them: its
 * shell must open, and say so, even when its body's chunk cannot be loaded (log-dialog.tsx).
 */

/** The open failure issues' lines, on a watched webhook's page that has some. */
export const IssueLines = dynamic(() =>
  import("@/components/issues/issue-lines").then((loaded) => loaded.IssueLines),
);

/** The reading of older deliveries a question waits for, with its progress and Cancel. */
export const CopyReading = dynamic(() =>
  import("@/components/history/copy-reading").then((loaded) => loaded.CopyReading),
);

/** A field of the webhook that looks like a credential, hidden until asked for. */
export const HiddenValue = dynamic(() =>
  import("@/components/webhook/hidden-value").then((loaded) => loaded.HiddenValue),
);
