// A small "copy" button: puts text on the clipboard and says so for a moment.
import { useState } from 'react';

export function CopyButton({ text, what, testId }: { text: string; what: string; testId?: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = () => {
    // The clipboard API needs a secure context (the app and 127.0.0.1 are); select-and-copy stays possible either way.
    navigator.clipboard?.writeText(text).then(
      () => setDone('copied'),
      () => setDone('failed'),
    );
    setTimeout(() => setDone(null), 1500);
  };
  return (
    <button className="link copy" onClick={copy} title={`copy the ${what}`} data-testid={testId} data-state={done ?? undefined}>
      {done === 'copied' ? 'copied' : done === 'failed' ? 'copy failed' : 'copy'}
    </button>
  );
}
