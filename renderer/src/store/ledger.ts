// Ledger slice: the token ledger of the previewed recipe (raw → filtered → sampled → seen per source) and the mix planner that edits the recipe.
import type { ErrorPayload, PlanResult, TokenLedgerResult } from '../../../shared/contract/index.js';
import { errorText, toErrorPayload } from '../api/errors.js';
import { latestRunner } from '../lib/latestRunner.js';
import { setTarget, targetsFromLedger } from '../lib/ledger.js';
import { patcher, type SliceCreator } from './types.js';

export interface PlannerState {
  /** Seen tokens to plan for; null until the first ledger suggests its own seen total. */
  budget: number | null;
  /** Target share per source (adding up to 1). */
  targets: Record<string, number>;
  maxRepetitions: number;
  result: PlanResult | null;
  running: boolean;
  error: string | null;
}

export interface LedgerState {
  result: TokenLedgerResult | null;
  /** The recipe text `result` is for (the previewed text, so the ledger and the preview agree). */
  text: string | null;
  error: ErrorPayload | null;
  running: boolean;
  epochs: number;
  /** The source whose token loss per rule is open. */
  lossSource: string | null;
  planner: PlannerState;
}

export interface LedgerSlice {
  ledger: LedgerState;
  /** The ledger of the previewed text, now (after each preview while the panel is open, and when it opens). */
  runLedger(): Promise<void>;
  setEpochs(epochs: number): void;
  toggleLoss(source: string): void;
  setBudget(budget: number): void;
  /** One source's target share; the others rescale to keep the total at 1. Plans (soon) and writes the recipe. */
  setPlanTarget(source: string, share: number): void;
  setMaxRepetitions(n: number): void;
  /** Targets back to the current shares. */
  resetTargets(): void;
}

export const createLedgerSlice: SliceCreator<LedgerSlice> = ({ api, previewGapMs }) => (set, get) => {
  const patch = patcher(set, get, 'ledger');
  const planner = (p: Partial<PlannerState>): void => patch({ planner: { ...get().ledger.planner, ...p } });
  let seq = 0;
  let planSeq = 0;
  /** Plan requests so far: `running` stays true from a request until a plan that started after it has answered. */
  let asked = 0;

  const plan = async (): Promise<void> => {
    const { budget, targets, maxRepetitions } = get().ledger.planner;
    if (budget === null || Object.keys(targets).length === 0) return planner({ running: false });
    const text = get().recipe.text;
    const mine = ++planSeq;
    const covers = asked;
    planner({ running: true });
    try {
      const result = await api.invoke('ledger.plan', { recipeText: text, request: { budget, targets, maxRepetitions } });
      if (mine !== planSeq) return;
      planner({ result, running: covers !== asked, error: null });
      // Written only over the text it was planned for: a keystroke meanwhile wins, and the next move plans again.
      if (result.feasible && get().recipe.text === text) get().setRecipeText(result.recipe);
    } catch (e) {
      if (mine !== planSeq) return;
      planner(toErrorPayload(e).code === 'CANCELLED' ? { running: covers !== asked } : { running: covers !== asked, error: errorText(e) });
    }
  };
  const runner = latestRunner(plan, previewGapMs);
  const requestPlan = (): void => {
    asked++;
    planner({ running: true });
    runner.request();
  };

  return {
    ledger: {
      result: null, text: null, error: null, running: false, epochs: 1, lossSource: null,
      planner: { budget: null, targets: {}, maxRepetitions: 1, result: null, running: false, error: null },
    },

    async runLedger() {
      const text = get().preview.text;
      if (text === null) return;
      const mine = ++seq;
      patch({ running: true });
      try {
        const result = await api.invoke('ledger.predict', { recipeText: text, epochs: get().ledger.epochs });
        if (mine !== seq) return;
        patch({ result, text, running: false, error: null });
        const p = get().ledger.planner;
        // First ledger, or other sources than the targets name (in any order: the ledger sorts by seen tokens): start from what the recipe gives now.
        const sources = (names: string[]): string => JSON.stringify([...names].sort());
        if (p.budget === null) planner({ budget: result.total.seen.tokens });
        if (sources(result.sources.map((s) => s.source)) !== sources(Object.keys(p.targets))) planner({ targets: targetsFromLedger(result) });
      } catch (e) {
        if (mine !== seq) return;
        const error = toErrorPayload(e);
        // A newer ledger (ours or another window's) took the preview thread: the next preview asks again.
        patch(error.code === 'CANCELLED' ? { running: false } : { running: false, error });
      }
    },

    setEpochs(epochs) {
      if (!(epochs > 0) || epochs === get().ledger.epochs) return;
      patch({ epochs });
      void get().runLedger();
    },

    toggleLoss(source) {
      patch({ lossSource: get().ledger.lossSource === source ? null : source });
    },

    setBudget(budget) {
      if (!(budget > 0)) return;
      planner({ budget });
      requestPlan();
    },

    setPlanTarget(source, share) {
      planner({ targets: setTarget(get().ledger.planner.targets, source, share) });
      requestPlan();
    },

    setMaxRepetitions(n) {
      if (!Number.isInteger(n) || n < 1) return;
      planner({ maxRepetitions: n });
      requestPlan();
    },

    resetTargets() {
      const r = get().ledger.result;
      if (r) planner({ targets: targetsFromLedger(r), result: null, error: null });
    },
  };
};
