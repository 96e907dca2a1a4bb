// The route table is the whole description of each endpoint: these check what the client derives from it.
import { describe, expect, it } from 'vitest';
import { fromService } from '../../src/main/failures.ts';
import { fail } from '../../src/shared/result.ts';
import { endpointOf, placeParams, ROUTES, type RouteName, type RouteSpec } from '../../src/shared/wire.ts';

const names = Object.keys(ROUTES) as RouteName[];

describe('the route table', () => {
  it('marks exactly the calls wire.md says are never retried as mutating', () => {
    // wire.md "Client tolerance": generate, delete, extend, reset, push, keyless add/delete.
    expect(names.filter((n) => ROUTES[n].mutates).sort()).toEqual(
      [
        'addKeyless',
        'deleteGeneratedKey',
        'deleteKey',
        'deleteKeyless',
        'editGeneratedKey',
        'editKey',
        'expandExpiration',
        'generateKeyGet',
        'generateKeyPost',
        'pushExecutionCount',
        'resetHwid',
        'resetHwidPublic',
      ].sort(),
    );
  });

  it('says which routes answer in the body whatever `success` says: validation alone', () => {
    expect(names.filter((n) => (ROUTES[n] as RouteSpec).answerInBody === true)).toEqual(['validate']);
  });

  it('says what each route naming a key or entry is about', () => {
    const about = Object.fromEntries(names.map((n) => [n, (ROUTES[n] as RouteSpec).resource ?? null]));
    expect(about).toEqual({
      pushExecutionCount: null,
      executionCount: null,
      generateKeyGet: null,
      generateKeyPost: null,
      identifierCheck: null,
      validate: null,
      deleteKey: 'key',
      expandExpiration: 'key',
      resetHwid: 'key',
      resetHwidPublic: 'key',
      editKey: 'key',
      fetchKey: 'key',
      editGeneratedKey: 'generatedKey',
      deleteGeneratedKey: 'generatedKey',
      fetchGeneratedKey: 'generatedKey',
      addKeyless: 'keyless',
      fetchKeyless: 'keyless',
      deleteKeyless: 'keyless',
    });
  });

  it('words a 404 by the route table', () => {
    const notFound = (route: RouteName) => fromService(route, fail('NOT_FOUND', 'gone (HTTP 404)')).message;
    expect(notFound('resetHwid')).toBe('The service has no key with that value.');
    expect(notFound('fetchGeneratedKey')).toBe('The service has no generated key with that value.');
    expect(notFound('deleteKeyless')).toBe('The service has no keyless entry for that HWID.');
    expect(notFound('executionCount')).toMatch(/does not know this address/);
  });

  it('lets validation take GET and POST, every other route one method', () => {
    expect(ROUTES.validate.methods).toEqual(['GET', 'POST']);
    for (const n of names.filter((x) => x !== 'validate')) expect((ROUTES[n] as RouteSpec).methods, n).toHaveLength(1);
  });

  it('marks the endpoints seen only in vendors’ code as optional', () => {
    expect(names.filter((n) => (ROUTES[n] as RouteSpec).optional === true).sort()).toEqual([
      'editGeneratedKey',
      'editKey',
      'resetHwidPublic',
    ]);
  });

  it('never sends an apiKey to the end user’s reset', () => {
    expect(placeParams('resetHwidPublic', { service: 's', key: 'K' }, 'secret')).toEqual({
      query: { service: 's', key: 'K' },
      body: undefined,
    });
  });

  it('sends a GET route’s parameters and apiKey in the query string', () => {
    expect(placeParams('fetchKey', { fetch: 'abc', limit: 5, offset: undefined }, 'secret')).toEqual({
      query: { apiKey: 'secret', fetch: 'abc', limit: 5 },
      body: undefined,
    });
  });

  it('sends a body route’s apiKey and parameters in the JSON body', () => {
    expect(placeParams('resetHwid', { keyValue: 'K' }, 'secret')).toEqual({ query: {}, body: { apiKey: 'secret', keyValue: 'K' } });
    expect(placeParams('generateKeyPost', { expire: '2099-01-01', count: 2, isPremium: false }, 'secret').body).toEqual({
      apiKey: 'secret',
      expire: '2099-01-01',
      count: 2,
      isPremium: false,
    });
  });

  it('sends expand-expiration entirely in the query string', () => {
    expect(placeParams('expandExpiration', { keyValue: 'K', days: 3 }, 'secret')).toEqual({
      query: { apiKey: 'secret', keyValue: 'K', days: 3 },
      body: undefined,
    });
  });

  it('never sends an apiKey to validation', () => {
    expect(placeParams('validate', { key: 'K', service: 's', hwid: 'H' }, 'secret')).toEqual({
      query: { key: 'K', service: 's', hwid: 'H' },
      body: undefined,
    });
    const bases = { baseUrl: 'https://api.example', validationUrl: 'https://check.example/v2_validation' };
    expect(endpointOf('validate', bases)).toEqual({ base: bases.validationUrl, path: '' });
    expect(endpointOf('fetchKey', bases)).toEqual({ base: bases.baseUrl, path: '/api/key/fetch' });
  });
});
