"use client";

import { saveFile } from "@/lib/browser/save-file";

export interface BundleFile {
  label: string;
  fileName: string;
  contentType: string;
  text: string;
}

/**
 * One button per format, each saving the very text the preview shows (not a second request, so
 * what is downloaded is exactly what was previewed).
 */
export function BundleDownloads({ files }: { files: BundleFile[] }) {
  function save(file: BundleFile) {
    saveFile(new Blob([file.text], { type: file.contentType }), file.fileName);
  }
  return (
    <div className="flex flex-wrap gap-3">
      {files.map((file) => (
        <button key={file.fileName} type="button" className="btn btn-secondary" onClick={() => save(file)}>
          Download {file.label}
        </button>
      ))}
    </div>
  );
}
