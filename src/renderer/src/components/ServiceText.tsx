// A key, HWID or note as the service sent it, safe to look at: hidden characters marked, long text cut.
import { useState } from 'react';
import { fmt, NOUNS } from '../lib/format.ts';
import { cutText, marked, shownText, SHOWN_CHARS } from '../lib/text.ts';

/** With `more={false}` (a grid row, a button) a long text ends in "…" and is seen whole elsewhere; else "Show all". */
export function ServiceText({ text, more = true }: { text: string; more?: boolean }) {
  if (text.length <= SHOWN_CHARS) return marked(text);
  return more ? <LongText text={text} /> : shownText(text);
}

function LongText({ text }: { text: string }) {
  const [whole, setWhole] = useState(false);
  return (
    <span className="service-text">
      {whole ? marked(text) : `${marked(cutText(text))}…`}{' '}
      <button
        type="button"
        className="link"
        aria-expanded={whole}
        onClick={(e) => {
          // Inside a clickable row it shows the text; it does not also pick the row.
          e.stopPropagation();
          setWhole(!whole);
        }}
      >
        {whole ? 'Show less' : `Show all ${fmt.count(text.length, NOUNS.character)}`}
      </button>
    </span>
  );
}
