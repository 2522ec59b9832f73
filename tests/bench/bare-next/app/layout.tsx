import type { ReactNode } from "react";

export const metadata = { title: "Bare Next page" };

/** The root layout the bare page needs: the document and nothing else. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
