// spaCy v3 tokenizer exceptions (lang/tokenizer_exceptions.py + lang/en/tokenizer_exceptions.py), as ORTH sequences.

type Exc = Map<string, string[]>;

const title = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const EMOTICONS = String.raw`:) :-) :)) :-)) :))) :-))) (: (-: =) (= ") :] :-] [: [-: :o) (o: :} :-} 8) 8-) (-8 ;) ;-) (; (-;
:( :-( :(( :-(( :((( :-((( ): )-: =( >:( :') :'-) :'( :'-( :/ :-/ =/ =| :| :-| :1 :P :-P :p :-p :O :-O :o :-o :0 :-0
:() >:o :* :-* :3 :-3 =3 :> :-> :X :-X :x :-x :D :-D ;D ;-D =D xD XD xDD XDD 8D 8-D ^_^ ^__^ ^___^ >.< >.> <.< ._. ;_;
-_- -__- v.v V.V v_v V_V o_o o_O O_o O_O 0_o o_0 0_0 o.O O.o O.O o.o 0.0 o.0 0.o @_@ <3 <33 <333 </3 (^_^) (-_-) (._.)
(>_<) (*_*) (¬_¬) ಠ_ಠ ಠ︵ಠ (ಠ_ಠ) ¯\(ツ)/¯ (╯°□°）╯︵┻━┻ ><(((*>`;

/** BASE_EXCEPTIONS: whitespace, single letters with a period, `C++`, emoticons. */
export function baseExceptions(): Exc {
  const exc: Exc = new Map();
  for (const orth of [' ', '\t', '\\t', '\n', '\\n', '\u2014', '\u00a0']) exc.set(orth, [orth]);
  const singles = ["'", '\\")', '<space>', "''", 'C++'];
  for (let c = 0x61; c <= 0x7a; c++) singles.push(`${String.fromCharCode(c)}.`);
  singles.push('ä.', 'ö.', 'ü.');
  for (const orth of singles) exc.set(orth, [orth]);
  for (const orth of EMOTICONS.split(/\s+/)) if (orth) exc.set(orth, [orth]);
  return exc;
}

const EXCLUDE = ['Ill', 'ill', 'Its', 'its', 'Hell', 'hell', 'Shell', 'shell', 'Shed', 'shed', 'were', 'Were', 'Well', 'well', 'Whore', 'whore'];

function pronouns(exc: Exc): void {
  const add = (key: string, toks: string[]): void => void exc.set(key, toks);
  for (const o of ['i', 'I']) {
    add(`${o}'m`, [o, "'m"]);
    add(`${o}m`, [o, 'm']);
    add(`${o}'ma`, [o, "'m", 'a']);
    add(`${o}ma`, [o, 'm', 'a']);
  }
  for (const p of ['i', 'you', 'he', 'she', 'it', 'we', 'they']) {
    for (const o of [p, title(p)]) {
      add(`${o}'ll`, [o, "'ll"]);
      add(`${o}ll`, [o, 'll']);
      add(`${o}'ll've`, [o, "'ll", "'ve"]);
      add(`${o}llve`, [o, 'll', 've']);
      add(`${o}'d`, [o, "'d"]);
      add(`${o}d`, [o, 'd']);
      add(`${o}'d've`, [o, "'d", "'ve"]);
      add(`${o}dve`, [o, 'd', 've']);
    }
  }
  for (const p of ['i', 'you', 'we', 'they']) {
    for (const o of [p, title(p)]) {
      add(`${o}'ve`, [o, "'ve"]);
      add(`${o}ve`, [o, 've']);
    }
  }
  for (const p of ['you', 'we', 'they']) {
    for (const o of [p, title(p)]) {
      add(`${o}'re`, [o, "'re"]);
      add(`${o}re`, [o, 're']);
    }
  }
  for (const p of ['he', 'she', 'it']) {
    for (const o of [p, title(p)]) {
      add(`${o}'s`, [o, "'s"]);
      add(`${o}s`, [o, 's']);
    }
  }
}

function wWords(exc: Exc): void {
  const add = (key: string, toks: string[]): void => void exc.set(key, toks);
  const sing = new Set(['that', 'this']);
  const plur = new Set(['these', 'those']);
  for (const w of ['who', 'what', 'when', 'where', 'why', 'how', 'there', 'that', 'this', 'these', 'those']) {
    for (const o of [w, title(w)]) {
      if (!plur.has(w)) {
        add(`${o}'s`, [o, "'s"]);
        add(`${o}s`, [o, 's']);
      }
      add(`${o}'ll`, [o, "'ll"]);
      add(`${o}ll`, [o, 'll']);
      add(`${o}'ll've`, [o, "'ll", "'ve"]);
      add(`${o}llve`, [o, 'll', 've']);
      if (!sing.has(w)) {
        add(`${o}'re`, [o, "'re"]);
        add(`${o}re`, [o, 're']);
        add(`${o}'ve`, [o, "'ve"]);
        add(`${o}ve`, [o, 've']);
      }
      add(`${o}'d`, [o, "'d"]);
      add(`${o}d`, [o, 'd']);
      add(`${o}'d've`, [o, "'d", "'ve"]);
      add(`${o}dve`, [o, 'd', 've']);
    }
  }
}

function verbs(exc: Exc): void {
  const add = (key: string, toks: string[]): void => void exc.set(key, toks);
  const modal = ['ca', 'could', 'do', 'does', 'did', 'had', 'may', 'might', 'must', 'need', 'ought', 'sha', 'should', 'wo', 'would'];
  for (const v of modal) {
    for (const o of [v, title(v)]) {
      add(`${o}n't`, [o, "n't"]);
      add(`${o}nt`, [o, 'nt']);
      add(`${o}n't've`, [o, "n't", "'ve"]);
      add(`${o}ntve`, [o, 'nt', 've']);
    }
  }
  for (const v of ['could', 'might', 'must', 'should', 'would']) {
    for (const o of [v, title(v)]) {
      add(`${o}'ve`, [o, "'ve"]);
      add(`${o}ve`, [o, 've']);
    }
  }
  for (const v of ['ai', 'are', 'is', 'was', 'were', 'have', 'has', 'dare']) {
    for (const o of [v, title(v)]) {
      add(`${o}n't`, [o, "n't"]);
      add(`${o}nt`, [o, 'nt']);
    }
  }
}

function rest(exc: Exc): void {
  const add = (key: string, toks: string[]): void => void exc.set(key, toks);
  for (const w of ['doin', 'goin', 'nothin', 'nuthin', 'ol', 'somethin']) {
    for (const o of [w, title(w)]) {
      add(o, [o]);
      add(`${o}'`, [`${o}'`]);
    }
  }
  for (const w of ['em', 'll', 'nuff']) {
    add(w, [w]);
    add(`'${w}`, [`'${w}`]);
  }
  for (let h = 1; h <= 12; h++) for (const p of ['a.m.', 'am', 'p.m.', 'pm']) add(`${h}${p}`, [String(h), p]);
  const other: Array<[string, string[]]> = [
    ["y'all", ["y'", 'all']], ['yall', ['y', 'all']], ["how'd'y", ['how', "'d", "'y"]], ["How'd'y", ['How', "'d", "'y"]],
    ["not've", ['not', "'ve"]], ['notve', ['not', 've']], ["Not've", ['Not', "'ve"]], ['Notve', ['Not', 've']],
    ['cannot', ['can', 'not']], ['Cannot', ['Can', 'not']], ['gonna', ['gon', 'na']], ['Gonna', ['Gon', 'na']],
    ['gotta', ['got', 'ta']], ['Gotta', ['Got', 'ta']], ["let's", ['let', "'s"]], ["Let's", ['Let', "'s"]],
    ["c'mon", ["c'm", 'on']], ["C'mon", ["C'm", 'on']],
  ];
  for (const [k, v] of other) add(k, v);
  const singles = `'S 's \u2018S \u2018s and/or w/o 're 'Cause 'cause 'cos 'Cos 'coz 'Coz 'cuz 'Cuz 'bout ma'am Ma'am o'clock
    O'clock lovin' Lovin' lovin Lovin havin' Havin' havin Havin doin' Doin' doin Doin goin' Goin' goin Goin Mt. Ak. Ala. Apr.
    Ariz. Ark. Aug. Calif. Colo. Conn. Dec. Del. Feb. Fla. Ga. Ia. Id. Ill. Ind. Jan. Jul. Jun. Kan. Kans. Ky. La. Mar. Mass.
    Mich. Minn. Miss. N.C. N.D. N.H. N.J. N.M. N.Y. Neb. Nebr. Nev. Nov. Oct. Okla. Ore. Pa. S.C. Sep. Sept. Tenn. Va. Wash.
    Wis. 'd a.m. Adm. Bros. co. Co. Corp. D.C. Dr. e.g. E.g. E.G. Gen. Gov. i.e. I.e. I.E. Inc. Jr. Ltd. Md. Messrs. Mo.
    Mont. Mr. Mrs. Ms. p.m. Ph.D. Prof. Rep. Rev. Sen. St. vs. v.s.`;
  for (const o of singles.split(/\s+/)) if (o) add(o, [o]);
}

/** `util.expand_exc(exc, "'", "’")`: every entry with an apostrophe also gets a curly-apostrophe twin. */
function expandApostrophes(exc: Exc): Exc {
  const out: Exc = new Map(exc);
  for (const [k, v] of exc) {
    if (k.includes("'")) out.set(k.replaceAll("'", '\u2019'), v.map((t) => t.replaceAll("'", '\u2019')));
  }
  return out;
}

/** English TOKENIZER_EXCEPTIONS = update_exc(BASE_EXCEPTIONS, _exc) after removing `_exclude`. */
export function englishExceptions(): Exc {
  const en: Exc = new Map();
  pronouns(en);
  wWords(en);
  verbs(en);
  rest(en);
  for (const s of EXCLUDE) en.delete(s);
  const all = baseExceptions();
  for (const [k, v] of en) all.set(k, v);
  return expandApostrophes(all);
}
