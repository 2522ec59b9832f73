import type { IgnoredParam } from "@/lib/domain/search-params";
import { Notice } from "@/components/ui/notice";

/** The parameters of the page's link that the view left out, each with why, and a way to drop them. */
export function IgnoredParamsNotice({
  ignored,
  onRemove,
}: {
  ignored: IgnoredParam[];
  onRemove: () => void;
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
      <button type="button" className="btn btn-secondary" onClick={onRemove}>
        Remove from the link
      </button>
    </Notice>
  );
}
