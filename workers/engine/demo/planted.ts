// What the demo plants for the filters to find: boilerplate, lorem ipsum, script notices, PII, spam, short junk and non-English text.
import { between, pick, type Rand } from './text.js';

/** Site furniture repeated verbatim across pages: paragraph dedupe finds every copy after the first. */
export const COOKIE_BANNER =
  'We use cookies to personalise content and ads, to provide social media features and to analyse our traffic. By continuing to use this site you consent to our use of cookies.';
export const FOOTERS = [
  'Subscribe to our newsletter to get the latest stories delivered to your inbox every week. You can unsubscribe at any time.',
  'Copyright 2024 Northwind Media Group. All rights reserved. Reproduction in whole or in part without permission is prohibited.',
  'Comments are moderated and will appear after approval. Please keep the discussion civil and on topic.',
];
export const JAVASCRIPT_NOTICE = 'Please enable JavaScript to view the comments powered by our discussion service.';

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.';

export function loremPage(rand: Rand): string {
  const title = pick(rand, ['Our Services', 'About Us', 'Product Page', 'New Template', 'Sample Post']);
  return [title, ...Array.from({ length: between(rand, 2, 4) }, () => LOREM)].join('\n');
}

const JUNK = [
  'Click here to continue',
  '404 Not Found',
  'Home | About | Contact | Login',
  'Loading...',
  'Page 2 of 17',
  'Share this: Facebook Twitter Email',
  'Sign in to see more',
  'Thanks!',
  'Error: session expired. Please log in again.',
  'Next page',
];

/** A page with almost nothing on it: Gopher's word-count rule drops these. */
export function shortJunk(rand: Rand): string {
  return Array.from({ length: between(rand, 1, 3) }, () => pick(rand, JUNK)).join('\n');
}

const TAGS = ['#sale', '#deal', '#free', '#win', '#giveaway', '#followme', '#promo', '#discount', '#bestprice', '#limited'];
const SPAM = ['Amazing offer today only', 'Buy now and save big on everything', 'Do not miss this incredible chance', 'Click the link in our bio for more', 'Best prices you will ever see online'];

/** Hashtag spam: Gopher's symbol-to-word ratio rule drops these (long enough to pass the word count). */
export function hashtagSpam(rand: Rand): string {
  const lines: string[] = [];
  for (let i = between(rand, 5, 8); i > 0; i--) lines.push(`${pick(rand, SPAM)} ${Array.from({ length: between(rand, 3, 6) }, () => pick(rand, TAGS)).join(' ')}`);
  return lines.join('\n');
}

const FIRST = ['maria', 'james', 'chen', 'amara', 'lukas', 'sofia', 'david', 'priya', 'tom', 'elena', 'omar', 'grace'];
const LAST = ['garcia', 'smith', 'wang', 'okafor', 'becker', 'rossi', 'miller', 'patel', 'brown', 'novak', 'haddad', 'kim'];
const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com'];

export function email(rand: Rand): string {
  return `${pick(rand, FIRST)}.${pick(rand, LAST)}${between(rand, 1, 99)}@${pick(rand, DOMAINS)}`;
}

/** North American numbers in the reserved 555-01xx range. */
export function phone(rand: Rand): string {
  const area = pick(rand, ['212', '312', '415', '617', '206', '303']);
  const line = `01${String(between(rand, 0, 99)).padStart(2, '0')}`;
  return pick(rand, [`(${area}) 555-${line}`, `${area}-555-${line}`, `${area}.555.${line}`]);
}

export function piiSentence(rand: Rand): string {
  return pick(rand, [
    `For questions, write to ${email(rand)} and we will reply within two days.`,
    `You can reach the organiser at ${phone(rand)} on weekdays.`,
    `Send your application to ${email(rand)} or call ${phone(rand)} before Friday.`,
    `Contact me at ${email(rand)} if you want the recipe.`,
  ]);
}

/** A staff directory: many PII spans in one document (the recipe drops documents with more than five). */
export function contactList(rand: Rand): string {
  const rows = Array.from({ length: between(rand, 6, 9) }, () => `${pick(rand, FIRST)} ${pick(rand, LAST)}: ${email(rand)}, ${phone(rand)}`);
  return ['Staff directory', 'Please contact the right person for your request.', ...rows].join('\n');
}

/** Written for the demo in plain everyday French, German and Spanish: the language rule drops these. */
const FOREIGN: Record<string, string[]> = {
  fr: [
    'Le marché du samedi ouvre à huit heures sur la place de la mairie.',
    'Nous avons passé une semaine à la montagne avec toute la famille.',
    "Le train pour Lyon est en retard de vingt minutes à cause d'un incident technique.",
    'Cette recette de soupe aux légumes se prépare en moins de trente minutes.',
    'La bibliothèque municipale propose des ateliers de lecture pour les enfants.',
    'Il faut arroser les tomates le soir quand il fait très chaud.',
  ],
  de: [
    'Der Bus fährt heute wegen einer Baustelle eine andere Strecke.',
    'Am Wochenende besuchen wir unsere Großeltern auf dem Land.',
    'Das neue Schwimmbad öffnet im Sommer jeden Tag um sieben Uhr.',
    'Bitte bringen Sie zum Termin Ihren Ausweis und die Versichertenkarte mit.',
    'Im Herbst sammeln die Kinder im Wald Kastanien und bunte Blätter.',
    'Die Stadtverwaltung plant mehr Radwege in der Innenstadt.',
  ],
  es: [
    'El museo de la ciudad abre sus puertas gratis el primer domingo de cada mes.',
    'Mañana lloverá en el norte y hará sol en el resto del país.',
    'Mi abuela prepara la mejor tortilla de patatas del barrio.',
    'El equipo ganó el partido en el último minuto con un gol de cabeza.',
    'La escuela organiza una excursión al parque natural la próxima semana.',
    'Hay que reservar mesa con antelación porque el restaurante siempre está lleno.',
  ],
};

export function foreignPage(rand: Rand): { text: string; lang: string } {
  const lang = pick(rand, Object.keys(FOREIGN));
  const pool = FOREIGN[lang] as string[];
  const paragraphs = Array.from({ length: between(rand, 3, 5) }, () => Array.from({ length: between(rand, 2, 4) }, () => pick(rand, pool)).join(' '));
  return { text: paragraphs.join('\n'), lang };
}
