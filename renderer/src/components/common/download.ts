// Saves text the renderer built (a CSV of the rule table) as a file download, through a Blob URL.

export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click has handed the Blob to the download; give it a moment before letting it go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
