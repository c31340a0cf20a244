// Smoke-mode pages (ASSAY_BENCH_SMOKE=1, no apt packages): a few small pages laid out like Sphinx and Publican output, written to disk.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS = 'module function returns value object string list the a of to and is in for with package install system file'.split(' ');

function para(seed: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(seed * 7 + i * 13 + ((i * i) % 5)) % WORDS.length] as string);
  return out.join(' ') + '.';
}

function sphinx(i: number): string {
  return `<!DOCTYPE html><html><head><title>Page ${i}</title><script>var DOCUMENTATION_OPTIONS = {};</script></head><body>
<div class="related" role="navigation"><h3>Navigation</h3><ul><li><a href="genindex.html">index</a></li><li><a href="p${i + 1}.html">next</a></li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">
<section id="s${i}"><h1>Topic ${i}</h1><p>${para(i, 40)}</p><pre>x = f(${i})</pre><ul><li>${para(i + 1, 8)}</li><li>${para(i + 2, 8)}</li></ul>
<section id="more"><h2>More</h2><p>${para(i + 3, 60)}</p><table><tr><td>a</td><td>${i}</td></tr></table></section></section>
</div></div></div>
<div class="sphinxsidebar" role="navigation"><h3>Table of Contents</h3><ul><li><a href="#s${i}">Topic ${i}</a></li></ul>
<div id="searchbox" role="search"><h3>Quick search</h3><form><input type="text" name="q"><input type="submit" value="Go"></form></div></div></div>
<div class="footer">© Copyright 2001-2023, Example Foundation. Last updated on Jan 01, 2024.</div></body></html>`;
}

function publican(i: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${i}. Section</title></head><body>
<div id="banner"><a href="http://example.org/get/"><span class="text">Download the ebook</span></a></div>
<ul class="docnav top"><li class="previous"><a href="p${i - 1}.html"><strong>Prev</strong></a></li><li class="home">The Handbook</li></ul>
<div class="section"><div class="titlepage"><h2 class="title">${i}. Section</h2></div><div class="para">${para(i, 50)}</div>
<div class="sidebar"><div class="titlepage"><strong>BACK TO BASICS</strong></div><div class="para">${para(i + 5, 30)}</div></div>
<pre class="screen">$ apt install pkg${i}</pre><div class="para">${para(i + 6, 45)}</div></div>
<ul class="docnav"><li class="previous"><a href="p${i - 1}.html"><strong>Prev</strong>Chapter ${i - 1}</a></li><li class="home"><a href="index.html"><strong>Home</strong></a></li></ul></body></html>`;
}

/** Writes `count` pages of the named layout under `dir` and returns their relative names. */
export function writeFixtures(dir: string, layout: 'sphinx' | 'publican', count: number): string[] {
  mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `p${i}.html`;
    writeFileSync(join(dir, name), layout === 'sphinx' ? sphinx(i) : publican(i));
    names.push(name);
  }
  return names;
}
