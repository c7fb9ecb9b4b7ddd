import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, entryHref, parseUrlState, serializeUrlState, type UrlState } from './url';

describe('url state', () => {
  it('serializes the default state to an empty query', () => {
    expect(serializeUrlState(DEFAULT_STATE)).toBe('');
    expect(parseUrlState('')).toEqual(DEFAULT_STATE);
  });

  it('round-trips every field, including awkward values', () => {
    const state: UrlState = {
      view: 'memory',
      plan: 'a b&c=d.md',
      q: 'dark mode #1 & "quotes"',
      projects: ['webapp', '', 'a,b'],
      sort: 'size',
      dir: 'asc',
      source: '-tmp-x-webapp',
      entry: '-tmp-x-webapp/user role.md',
      types: ['user', 'none'],
      tab: 'graph',
      pick: 'web app & co',
      full: true,
    };
    const query = serializeUrlState(state);
    expect(parseUrlState(query)).toEqual(state);
  });

  it('keeps the memory health tab and the project picker\'s text', () => {
    expect(parseUrlState('?view=memory&tab=health&pick=shop')).toMatchObject({ tab: 'health', pick: 'shop' });
    expect(serializeUrlState({ ...DEFAULT_STATE, view: 'memory', tab: 'health', pick: 'a b' })).toBe('?view=memory&tab=health&pick=a+b');
  });

  it('uses the natural direction of a column unless told otherwise', () => {
    expect(parseUrlState('?sort=title')).toMatchObject({ sort: 'title', dir: 'asc' });
    expect(parseUrlState('?sort=size')).toMatchObject({ sort: 'size', dir: 'desc' });
    expect(serializeUrlState({ ...DEFAULT_STATE, sort: 'title', dir: 'asc' })).toBe('?sort=title');
    expect(serializeUrlState({ ...DEFAULT_STATE, sort: 'modified', dir: 'asc' })).toBe('?sort=modified&dir=asc');
  });

  it('ignores unknown or hostile values', () => {
    const s = parseUrlState('?view=admin&sort=evil&dir=up&type=secret&type=user&tab=x&full=yes');
    expect(s).toMatchObject({ view: 'plans', sort: 'modified', dir: 'desc', types: ['user'], tab: 'entry', full: false });
  });

  it('builds entry links that parse back', () => {
    const s = parseUrlState(entryHref('src', 'src/x.md'));
    expect(s).toMatchObject({ view: 'memory', source: 'src', entry: 'src/x.md' });
  });
});
