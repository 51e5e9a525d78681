// Straightforward BERT uncased WordPiece tokenizer driven by tokenizer.json's vocab.
import fs from 'node:fs';

export function loadTokenizer(dir, maxLen = 256) {
  const tj = JSON.parse(fs.readFileSync(`${dir}/tokenizer.json`, 'utf8'));
  const vocab = new Map(Object.entries(tj.model.vocab));
  const unk = vocab.get('[UNK]'), cls = vocab.get('[CLS]'), sep = vocab.get('[SEP]');
  const maxChars = tj.model.max_input_chars_per_word ?? 100;
  const isCJK = (cp) => (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
    (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) ||
    (cp >= 0x2B820 && cp <= 0x2CEAF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
  const isWS = (c) => /\s/u.test(c);
  const isCtl = (c) => c !== '\t' && c !== '\n' && c !== '\r' && /[\p{Cc}\p{Cf}]/u.test(c);
  const isPunct = (c) => { const cp = c.codePointAt(0);
    return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126) || /\p{P}/u.test(c); };

  function normalize(text) {
    let s = '';
    for (const c of text) {
      const cp = c.codePointAt(0);
      if (cp === 0 || cp === 0xFFFD || isCtl(c)) continue;
      if (isWS(c)) s += ' ';
      else if (isCJK(cp)) s += ' ' + c + ' ';
      else s += c;
    }
    return s.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '');
  }
  function preTokenize(s) {
    const words = []; let cur = '';
    for (const c of s) {
      if (isWS(c)) { if (cur) words.push(cur); cur = ''; }
      else if (isPunct(c)) { if (cur) words.push(cur); words.push(c); cur = ''; }
      else cur += c;
    }
    if (cur) words.push(cur);
    return words;
  }
  function wordpiece(w, out) {
    const chars = Array.from(w);
    if (chars.length > maxChars) { out.push(unk); return; }
    const pieces = []; let start = 0;
    while (start < chars.length) {
      let end = chars.length, id;
      for (; end > start; end--) {
        const sub = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        if (vocab.has(sub)) { id = vocab.get(sub); break; }
      }
      if (id === undefined) { out.push(unk); return; }
      pieces.push(id); start = end;
    }
    out.push(...pieces);
  }
  return function encode(text) {
    const ids = [];
    for (const w of preTokenize(normalize(text))) wordpiece(w, ids);
    return [cls, ...ids.slice(0, maxLen - 2), sep];
  };
}
