// Under a flag rule's sub-rule histogram: which test the tagger applied, and how to make its threshold tunable.
import type { SubRule } from '../../../../shared/contract/index.js';
import { subRuleTest, tunableRuleSnippet } from '../../lib/subRules.js';
import { CopyButton } from '../common/CopyButton.js';

export function SubRuleNote({ sub, tunable }: { sub: SubRule; tunable: boolean }) {
  const snippet = tunableRuleSnippet(sub);
  if (tunable) {
    return (
      <p className="note" data-testid="subrule-note" data-tunable="true">
        <code>{sub.key}</code>: a rule of the recipe compares this value — drag its threshold. (The tagger’s own test: {subRuleTest(sub)}.)
      </p>
    );
  }
  return (
    <div className="note" data-testid="subrule-note" data-tunable="false">
      <p>
        <code>{sub.key}</code>: the dashed line is the tagger’s threshold ({subRuleTest(sub)}); the recipe only reads the 0/1 flag, so it cannot be
        dragged here.
        {snippet
          ? ' To tune it, add this exclude rule to the stream’s filter; its threshold then becomes draggable. (The flag rule still drops every document the tagger failed: to loosen a threshold, replace the flag rule by one rule per sub-rule.)'
          : ' To tune it, add an exclude rule comparing this attribute with a number to the stream’s filter; its threshold then becomes draggable.'}
      </p>
      {snippet && (
        <p>
          <code className="snippet" data-testid="subrule-snippet">
            {snippet}
          </code>{' '}
          <CopyButton text={snippet} what="rule" />
        </p>
      )}
    </div>
  );
}
