// The empty state of a workspace with no recipe: the mix starters (presets, the attribute catalogue), rendered, saved, opened.
import { useWorkbenchApi } from '../../store/index.js';
import { NewFromTemplate } from './NewFromTemplate.js';

export function StarterRecipes({ testId }: { testId: string }) {
  const store = useWorkbenchApi();
  return (
    <div className="starter" data-testid={testId}>
      <p>
        <b>No recipe in this workspace yet.</b> Start from one of these: each is written for this workspace (its documents and the attributes it
        has), saved under the name you choose, then opened here.
      </p>
      <NewFromTemplate kind="mix" layout="buttons" testId={`${testId}-new`} onCreated={(path) => void store.getState().openRecipe(path)} />
    </div>
  );
}
