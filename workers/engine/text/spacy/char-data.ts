// spaCy v3 `lang/char_classes.py` source strings (Python class syntax), parsed into code-point sets by char-classes.ts.

export const BENGALI = String.raw`\u0980-\u09FF`;
export const HEBREW = String.raw`\u0591-\u05F4\uFB1D-\uFB4F`;
export const HINDI = String.raw`\u0900-\u097F`;
export const KANNADA = String.raw`\u0C80-\u0CFF`;
export const TAMIL = String.raw`\u0B80-\u0BFF`;
export const TELUGU = String.raw`\u0C00-\u0C7F`;
export const ETHIOPIC = String.raw`\u1200-\u137F`;
export const CJK =
  String.raw`\u4E00-\u62FF\u6300-\u77FF\u7800-\u8CFF\u8D00-\u9FFF\u3400-\u4DBF` +
  String.raw`\U00020000-\U000215FF\U00021600-\U000230FF\U00023100-\U000245FF` +
  String.raw`\U00024600-\U000260FF\U00026100-\U000275FF\U00027600-\U000290FF` +
  String.raw`\U00029100-\U0002A6DF\U0002A700-\U0002B73F\U0002B740-\U0002B81F` +
  String.raw`\U0002B820-\U0002CEAF\U0002CEB0-\U0002EBEF\u2E80-\u2EFF\u2F00-\u2FDF` +
  String.raw`\u2FF0-\u2FFF\u3000-\u303F\u31C0-\u31EF\u3200-\u32FF\u3300-\u33FF` +
  String.raw`\uF900-\uFAFF\uFE30-\uFE4F\U0001F200-\U0001F2FF\U0002F800-\U0002FA1F`;
export const HANGUL = String.raw`\uAC00-\uD7AF\u1100-\u11FF`;
export const PERSIAN =
  String.raw`\u0620-\u064A\u066E-\u06D5\u06E5-\u06FF\u0750-\u077F\u08A0-\u08BD` +
  String.raw`\uFB50-\uFBB1\uFBD3-\uFD3D\uFD50-\uFDC7\uFDF0-\uFDFB\uFE70-\uFEFC\U0001EE00-\U0001EEBB`;
export const SINHALA = String.raw`\u0D80-\u0DFF`;

const L_U_STANDARD = 'A-Z\\uFF21-\\uFF3A';
const L_L_STANDARD = 'a-z\\uFF41-\\uFF5A';
const L_U_SUPPLEMENT = String.raw`\u00C0-\u00D6\u00D8-\u00DE`;
const L_L_SUPPLEMENT = String.raw`\u00DF-\u00F6\u00F8-\u00FF`;
const L_U_EXT_A =
  String.raw`\u0100\u0102\u0104\u0106\u0108\u010A\u010C\u010E\u0110\u0112\u0114\u0116\u0118\u011A\u011C` +
  String.raw`\u011E\u0120\u0122\u0124\u0126\u0128\u012A\u012C\u012E\u0130\u0132\u0134\u0136\u0139\u013B` +
  String.raw`\u013D\u013F\u0141\u0143\u0145\u0147\u014A\u014C\u014E\u0150\u0152\u0154\u0156\u0158` +
  String.raw`\u015A\u015C\u015E\u0160\u0162\u0164\u0166\u0168\u016A\u016C\u016E\u0170\u0172\u0174\u0176` +
  String.raw`\u0178\u0179\u017B\u017D`;
const L_L_EXT_A =
  String.raw`\u0101\u0103\u0105\u0107\u0109\u010B\u010D\u010F\u0111\u0113\u0115\u0117\u0119\u011B\u011D` +
  String.raw`\u011F\u0121\u0123\u0125\u0127\u0129\u012B\u012D\u012F\u0131\u0133\u0135\u0137\u0138\u013A` +
  String.raw`\u013C\u013E\u0140\u0142\u0144\u0146\u0148\u0149\u014B\u014D\u014F\u0151\u0153\u0155\u0157` +
  String.raw`\u0159\u015B\u015D\u015F\u0161\u0163\u0165\u0167\u0169\u016B\u016D\u016F\u0171\u0173\u0175` +
  String.raw`\u0177\u017A\u017C\u017E\u017F`;
const L_U_EXT_B =
  String.raw`\u0181\u0182\u0184\u0186\u0187\u0189-\u018B\u018E-\u0191\u0193\u0194\u0196-\u0198\u019C` +
  String.raw`\u019D\u019F\u01A0\u01A2\u01A4\u01A6\u01A7\u01A9\u01AC\u01AE\u01AF\u01B1-\u01B3\u01B5` +
  String.raw`\u01B7\u01B8\u01BC\u01C4\u01C7\u01CA\u01CD\u01CF\u01D1\u01D3\u01D5\u01D7\u01D9\u01DB` +
  String.raw`\u01DE\u01E0\u01E2\u01E4\u01E6\u01E8\u01EA\u01EC\u01EE\u01F1\u01F4\u01F6-\u01F8\u01FA` +
  String.raw`\u01FC\u01FE\u0200\u0202\u0204\u0206\u0208\u020A\u020C\u020E\u0210\u0212\u0214\u0216` +
  String.raw`\u0218\u021A\u021C\u021E\u0220\u0222\u0224\u0226\u0228\u022A\u022C\u022E\u0230\u0232` +
  String.raw`\u023A\u023B\u023D\u023E\u0241\u0243-\u0246\u0248\u024A\u024C\u024E`;
const L_L_EXT_B =
  String.raw`\u0180\u0183\u0185\u0188\u018C\u018D\u0192\u0195\u0199-\u019B\u019E\u01A1\u01A3\u01A5` +
  String.raw`\u01A8\u01AA\u01AB\u01AD\u01B0\u01B4\u01B6\u01B9\u01BA\u01BD-\u01BF\u01C6\u01C9\u01CC` +
  String.raw`\u01CE\u01D0\u01D2\u01D4\u01D6\u01D8\u01DA\u01DC\u01DD\u01DF\u01E1\u01E3\u01E5\u01E7` +
  String.raw`\u01E9\u01EB\u01ED\u01EF\u01F0\u01F3\u01F5\u01F9\u01FB\u01FD\u01FF\u0201\u0203\u0205` +
  String.raw`\u0207\u0209\u020B\u020D\u020F\u0211\u0213\u0215\u0217\u0219\u021B\u021D\u021F\u0221` +
  String.raw`\u0223\u0225\u0227\u0229\u022B\u022D\u022F\u0231\u0233-\u0239\u023C\u023F\u0240\u0242` +
  String.raw`\u0247\u0249\u024B\u024D\u024F`;
const L_U_EXT_C = String.raw`\u2C60\u2C62-\u2C64\u2C67\u2C69\u2C6B\u2C6D-\u2C70\u2C72\u2C75\u2C7E\u2C7F`;
const L_L_EXT_C = String.raw`\u2C61\u2C65\u2C66\u2C68\u2C6A\u2C6C\u2C71\u2C73\u2C74\u2C76-\u2C7B`;
const L_U_EXT_D =
  String.raw`\uA722\uA724\uA726\uA728\uA72A\uA72C\uA72E\uA732\uA734\uA736\uA738\uA73A\uA73C` +
  String.raw`\uA73E\uA740\uA742\uA744\uA746\uA748\uA74A\uA74C\uA74E\uA750\uA752\uA754\uA756\uA758` +
  String.raw`\uA75A\uA75C\uA75E\uA760\uA762\uA764\uA766\uA768\uA76A\uA76C\uA76E\uA779\uA77B\uA77D` +
  String.raw`\uA77E\uA780\uA782\uA784\uA786\uA78B\uA78D\uA790\uA792\uA796\uA798\uA79A\uA79C\uA79E` +
  String.raw`\uA7A0\uA7A2\uA7A4\uA7A6\uA7A8\uA7AA-\uA7AE\uA7B0-\uA7B4\uA7B6\uA7B8`;
const L_L_EXT_D =
  String.raw`\uA723\uA725\uA727\uA729\uA72B\uA72D\uA72F-\uA731\uA733\uA735\uA737\uA739\uA73B\uA73D` +
  String.raw`\uA73F\uA741\uA743\uA745\uA747\uA749\uA74B\uA74D\uA74F\uA751\uA753\uA755\uA757\uA759` +
  String.raw`\uA75B\uA75D\uA75F\uA761\uA763\uA765\uA767\uA769\uA76B\uA76D\uA76F\uA771-\uA778\uA77A` +
  String.raw`\uA77C\uA77F\uA781\uA783\uA785\uA787\uA78C\uA78E\uA791\uA793-\uA795\uA797\uA799\uA79B` +
  String.raw`\uA79D\uA79F\uA7A1\uA7A3\uA7A5\uA7A7\uA7A9\uA7AF\uA7B5\uA7B7\uA7B9\uA7FA`;
const L_L_EXT_E = String.raw`\uAB30-\uAB5A\uAB60-\uAB64`;
const L_L_PHONETIC = String.raw`\u0250-\u02AF\u1D00-\u1D25\u1D6B-\u1D77\u1D79-\u1D9A`;
const L_U_DIACRITICS = everyOther(0x1e00, 0x1efe, [0x1e9e], [0x1e96, 0x1e98, 0x1e9a, 0x1e9c]);
const L_L_DIACRITICS = everyOther(0x1e01, 0x1eff, [0x1e95, 0x1e96, 0x1e97, 0x1e98, 0x1e99, 0x1e9a, 0x1e9b, 0x1e9c, 0x1e9d, 0x1e9f], []);

/** Vietnamese letters alternate upper/lower; spaCy lists them one by one, with a few irregular entries. */
function everyOther(from: number, to: number, add: number[], skip: number[]): string {
  const cps = new Set<number>();
  for (let c = from; c <= to; c += 2) if (!skip.includes(c)) cps.add(c);
  for (const c of add) cps.add(c);
  return [...cps].map((c) => `\\u${c.toString(16).toUpperCase()}`).join('');
}

const LATIN_EXT = String.raw`\u0180-\u01BF\u01C4-\u024F\u2C60-\u2C7B\u2C7E\u2C7F\uA722-\uA76F\uA771-\uA787\uA78B-\uA78E\uA790-\uA7B9\uA7FA`;
export const LATIN =
  'A-Za-z\\uFF21-\\uFF3A\\uFF41-\\uFF5A' +
  String.raw`\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF\u0100-\u017F` +
  LATIN_EXT +
  L_L_EXT_E +
  L_L_PHONETIC +
  String.raw`\u1E00-\u1EFF`;
export const LATIN_LOWER =
  L_L_STANDARD + L_L_SUPPLEMENT + L_L_EXT_A + L_L_EXT_B + L_L_EXT_C + L_L_EXT_D + L_L_EXT_E + L_L_PHONETIC + L_L_DIACRITICS;
export const LATIN_UPPER = L_U_STANDARD + L_U_SUPPLEMENT + L_U_EXT_A + L_U_EXT_B + L_U_EXT_C + L_U_EXT_D + L_U_DIACRITICS;

export const OTHER_LOWER = 'ёа-я' + 'әөүҗңһ' + 'α-ωάέίόώήύ' + 'а-щюяіїєґ' + 'ѓѕјљњќѐѝ';
export const OTHER_UPPER = 'ЁА-Я' + 'ӘӨҮҖҢҺ' + 'Α-ΩΆΈΊΌΏΉΎ' + 'А-ЩЮЯІЇЄҐ' + 'ЃЅЈЉЊЌЀЍ';
export const UNCASED = ETHIOPIC + BENGALI + HEBREW + PERSIAN + SINHALA + HINDI + KANNADA + TAMIL + TELUGU + HANGUL + CJK;

export const UNITS =
  'km km² km³ m m² m³ dm dm² dm³ cm cm² cm³ mm mm² mm³ ha µm nm yd in ft ' +
  'kg g mg µg t lb oz m/s km/h kmh mph hPa Pa mbar mb MB kb KB gb GB tb ' +
  'TB T G M K % км км² км³ м м² м³ дм дм² дм³ см см² см³ мм мм² мм³ нм ' +
  // Upstream concatenates the next two literals without a space, producing the unit "тбكم"; kept as is.
  'кг г мг м/с км/ч кПа Па мбар Кб КБ кб Мб МБ мб Гб ГБ гб Тб ТБ тб' +
  'كم كم² كم³ م م² م³ سم سم² سم³ مم مم² مم³ كم غرام جرام جم كغ ملغ كوب اكواب';
export const CURRENCY =
  '$ £ € ¥ ฿ US$ C$ A$ ₽ ﷼ ₴ ₠ ₡ ₢ ₣ ₤ ₥ ₦ ₧ ₨ ₩ ₪ ₫ € ₭ ₮ ₯ ₰ ₱ ₲ ₳ ₴ ₵ ₶ ₷ ₸ ₹ ₺ ₻ ₼ ₽ ₾ ₿';
/** LIST_PUNCT, unescaped, in upstream order. */
export const PUNCT = '… …… , : ; ! ? ¿ ؟ ¡ ( ) [ ] { } < > _ # * & 。 ？ ！ ， 、 ； ： ～ · । ، ۔ ؛ ٪';
/** LIST_QUOTES, unescaped, in upstream order. */
export const QUOTES = '\' " ” “ ` ‘ ´ ’ ‚ , „ » « 「 」 『 』 （ ） 〔 〕 【 】 《 》 〈 〉 〈 〉 ⟦ ⟧';
export const HYPHENS = '- – — -- --- —— ~';

export const ICONS =
  String.raw`\u00A6\u00A9\u00AE\u00B0\u0482\u058D\u058E\u060E\u060F\u06DE\u06E9\u06FD\u06FE\u07F6\u09FA\u0B70` +
  String.raw`\u0BF3-\u0BF8\u0BFA\u0C7F\u0D4F\u0D79\u0F01-\u0F03\u0F13\u0F15-\u0F17\u0F1A-\u0F1F\u0F34` +
  String.raw`\u0F36\u0F38\u0FBE-\u0FC5\u0FC7-\u0FCC\u0FCE\u0FCF\u0FD5-\u0FD8\u109E\u109F\u1390-\u1399` +
  String.raw`\u1940\u19DE-\u19FF\u1B61-\u1B6A\u1B74-\u1B7C\u2100\u2101\u2103-\u2106\u2108\u2109\u2114\u2116` +
  String.raw`\u2117\u211E-\u2123\u2125\u2127\u2129\u212E\u213A\u213B\u214A\u214C\u214D\u214F\u218A\u218B` +
  String.raw`\u2195-\u2199\u219C-\u219F\u21A1\u21A2\u21A4\u21A5\u21A7-\u21AD\u21AF-\u21CD\u21D0\u21D1\u21D3` +
  String.raw`\u21D5-\u21F3\u2300-\u2307\u230C-\u231F\u2322-\u2328\u232B-\u237B\u237D-\u239A\u23B4-\u23DB` +
  String.raw`\u23E2-\u2426\u2440-\u244A\u249C-\u24E9\u2500-\u25B6\u25B8-\u25C0\u25C2-\u25F7\u2600-\u266E` +
  String.raw`\u2670-\u2767\u2794-\u27BF\u2800-\u28FF\u2B00-\u2B2F\u2B45\u2B46\u2B4D-\u2B73\u2B76-\u2B95` +
  String.raw`\u2B98-\u2BC8\u2BCA-\u2BFE\u2CE5-\u2CEA\u2E80-\u2E99\u2E9B-\u2EF3\u2F00-\u2FD5\u2FF0-\u2FFB` +
  String.raw`\u3004\u3012\u3013\u3020\u3036\u3037\u303E\u303F\u3190\u3191\u3196-\u319F\u31C0-\u31E3` +
  String.raw`\u3200-\u321E\u322A-\u3247\u3250\u3260-\u327F\u328A-\u32B0\u32C0-\u32FE\u3300-\u33FF\u4DC0-\u4DFF` +
  String.raw`\uA490-\uA4C6\uA828-\uA82B\uA836\uA837\uA839\uAA77-\uAA79\uFDFD\uFFE4\uFFE8\uFFED\uFFEE\uFFFC` +
  String.raw`\uFFFD\U00010137-\U0001013F\U00010179-\U00010189\U0001018C-\U0001018E\U00010190-\U0001019B` +
  String.raw`\U000101A0\U000101D0-\U000101FC\U00010877\U00010878\U00010AC8\U0001173F\U00016B3C-\U00016B3F` +
  String.raw`\U00016B45\U0001BC9C\U0001D000-\U0001D0F5\U0001D100-\U0001D126\U0001D129-\U0001D164` +
  String.raw`\U0001D16A-\U0001D16C\U0001D183\U0001D184\U0001D18C-\U0001D1A9\U0001D1AE-\U0001D1E8` +
  String.raw`\U0001D200-\U0001D241\U0001D245\U0001D300-\U0001D356\U0001D800-\U0001D9FF\U0001DA37-\U0001DA3A` +
  String.raw`\U0001DA6D-\U0001DA74\U0001DA76-\U0001DA83\U0001DA85\U0001DA86\U0001ECAC\U0001F000-\U0001F02B` +
  String.raw`\U0001F030-\U0001F093\U0001F0A0-\U0001F0AE\U0001F0B1-\U0001F0BF\U0001F0C1-\U0001F0CF` +
  String.raw`\U0001F0D1-\U0001F0F5\U0001F110-\U0001F16B\U0001F170-\U0001F1AC\U0001F1E6-\U0001F202` +
  String.raw`\U0001F210-\U0001F23B\U0001F240-\U0001F248\U0001F250\U0001F251\U0001F260-\U0001F265` +
  String.raw`\U0001F300-\U0001F3FA\U0001F400-\U0001F6D4\U0001F6E0-\U0001F6EC\U0001F6F0-\U0001F6F9` +
  String.raw`\U0001F700-\U0001F773\U0001F780-\U0001F7D8\U0001F800-\U0001F80B\U0001F810-\U0001F847` +
  String.raw`\U0001F850-\U0001F859\U0001F860-\U0001F887\U0001F890-\U0001F8AD\U0001F900-\U0001F90B` +
  String.raw`\U0001F910-\U0001F93E\U0001F940-\U0001F970\U0001F973-\U0001F976\U0001F97A\U0001F97C-\U0001F9A2` +
  String.raw`\U0001F9B0-\U0001F9B9\U0001F9C0-\U0001F9C2\U0001F9D0-\U0001F9FF\U0001FA60-\U0001FA6D`;
