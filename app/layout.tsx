import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Webhook Console", template: "%s · Webhook Console" },
  description: "See why Messaging Hub webhook deliveries fail, and fix it fast.",
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {children}
      </body>
    </html>
  );
}
