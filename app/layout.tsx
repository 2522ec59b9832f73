import type { Metadata, Viewport } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Webhook Console", template: "%s · Webhook Console" },
  description: "See why Messaging Hub webhook deliveries fail, and fix it fast.",
};

/**
 * No `colorScheme` here: `color-scheme` is set on :root (app/globals.css). Next writes the head's
 * <meta> elements again on every navigation, and a <meta name="color-scheme"> taken out and put
 * back makes the browser restyle the whole document.
 */
export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#09090b" },
  ],
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <a
          href="#main"
          className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-blue-800 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 dark:bg-zinc-900 dark:text-blue-300"
        >
          Skip to main content
        </a>
        {children}
      </body>
    </html>
  );
}
