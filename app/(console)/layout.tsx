import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-header";
import { serverConfig } from "@/lib/server/config";
import { getSession } from "@/lib/server/session/session";
import { Providers } from "@/app/providers";

/** The signed-in part of the console. Each page checks the session itself (a layout is not a boundary). */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await getSession();
  const keyHint = session.status === "signed_in" ? session.data.keyHint || null : null;
  return (
    <Providers>
      <AppHeader keyHint={keyHint} sandboxMode={serverConfig().sandboxMode} />
      <main id="main" className="mx-auto max-w-[100rem] px-4 py-5 sm:px-6">
        {children}
      </main>
    </Providers>
  );
}
