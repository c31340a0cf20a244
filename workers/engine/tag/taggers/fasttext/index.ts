// The fastText / language-id tagger family: Dolma's ft_lang_id_*, lid176, eld, DataTrove's LanguageFilter, generic classifiers.
import type { TaggerSpec } from '../../types.js';
import { fasttextClassifierTagger } from './classifier.js';
import { dolmaLangTaggers } from './dolma-lang.js';
import { eldTagger } from './eld.js';
import { languageFilterTagger } from './language-filter.js';
import { lid176Tagger } from './lid176.js';

export { DEFAULT_LID_MODEL, loadFastTextModel, type FastTextModel, type Prediction } from './model.js';
export { trainSupervised, type TrainOptions } from './train.js';

// `any`: each spec has its own options type, and TaggerSpec is invariant in it (create's parameter).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const fasttextTaggers: TaggerSpec<any>[] = [
  ...dolmaLangTaggers,
  lid176Tagger,
  eldTagger,
  languageFilterTagger,
  fasttextClassifierTagger,
];
