import Link from "next/link";
import type { IgnoredParam } from "@/lib/domain/search-params";
import { Notice } from "@/components/ui/notice";

/** The parameters of the page's link that the view left out, each with why, and the link without them. */
export function IgnoredParamsNotice({
  ignored,
  withoutHref,
}: {
  ignored: IgnoredParam[];
  withoutHref: string;
}) {
  return (
    <Notice tone="warning" title="Part of this link was ignored">
      <ul className="list-disc space-y-1 pl-5">
        {ignored.map(({ name, value, reason }) => (
          <li key={name}>
            <code className="font-mono text-xs break-all">
              {name}={value}
            </code>
            : {reason}.
          </li>
        ))}
      </ul>
      <Link href={withoutHref} replace className="btn btn-secondary">
        Remove from the link
      </Link>
    </Notice>
  );
}
