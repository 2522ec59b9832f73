"use client";

import { lazyPart } from "@/components/ui/lazy-part";

/*
 * Parts of a webhook's page that only some pages show, each a chunk of its own (loaded from the
 * browser's side: a dynamic import made by a server component does not split the page's code): a
 * page loads one only when it shows it. The delivery dialog is not one of them: its shell must
 * open, and say so, even when its body's chunk cannot be loaded (log-dialog.tsx).
 */

/** The open failure issues' lines, on a watched webhook's page that has some. */
export const IssueLines = lazyPart(() =>
  import("@/components/issues/issue-lines").then((loaded) => loaded.IssueLines),
);

/** The reading of older deliveries a question waits for, with its progress and Cancel. */
export const CopyReading = lazyPart(() =>
  import("@/components/history/copy-reading").then((loaded) => loaded.CopyReading),
);

/** A field of the webhook that looks like a credential, hidden until asked for. */
export const HiddenValue = lazyPart(() =>
  import("@/components/webhook/hidden-value").then((loaded) => loaded.HiddenValue),
);
