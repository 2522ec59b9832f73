"use client";

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
    const url = URL.createObjectURL(new Blob([file.text], { type: file.contentType }));
    const link = document.createElement("a");
    link.href = url;
    link.download = file.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
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
