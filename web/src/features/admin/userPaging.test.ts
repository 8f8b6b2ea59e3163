import { describe, expect, it } from 'vitest';
import { adminUsersPage } from '../../test/adminUsersFixtures';
import { pageInfo, readPage } from './userPaging';

describe('readPage', () => {
  it('takes whole numbers from 1 to 1000000, anything else is page 1', () => {
    expect(readPage(null)).toBe(1);
    expect(readPage('')).toBe(1);
    expect(readPage('1')).toBe(1);
    expect(readPage('2')).toBe(2);
    expect(readPage(' 3 ')).toBe(3);
    expect(readPage('1000000')).toBe(1_000_000);
    for (const bad of ['0', '-1', '1.5', '2e3', 'abc', '1000001', '99999999', '0x10']) expect(readPage(bad), bad).toBe(1);
  });
});

describe('pageInfo', () => {
  it('pages, positions and directions from the server’s answer', () => {
    expect(pageInfo(adminUsersPage(1))).toEqual({ page: 1, pages: 3, total: 120, from: 1, to: 50, hasPrev: false, hasNext: true });
    expect(pageInfo(adminUsersPage(2))).toEqual({ page: 2, pages: 3, total: 120, from: 51, to: 100, hasPrev: true, hasNext: true });
    expect(pageInfo(adminUsersPage(3))).toEqual({ page: 3, pages: 3, total: 120, from: 101, to: 120, hasPrev: true, hasNext: false });
  });

  it('uses the per_page the server answered with', () => {
    expect(pageInfo(adminUsersPage(4, 10, 35))).toEqual({ page: 4, pages: 4, total: 35, from: 31, to: 35, hasPrev: true, hasNext: false });
    expect(pageInfo(adminUsersPage(1, 100, 100))).toEqual({ page: 1, pages: 1, total: 100, from: 1, to: 100, hasPrev: false, hasNext: false });
  });

  it('no users: one empty page; past the end: no positions, back is possible', () => {
    expect(pageInfo(adminUsersPage(1, 50, 0))).toEqual({ page: 1, pages: 1, total: 0, from: 0, to: 0, hasPrev: false, hasNext: false });
    expect(pageInfo(adminUsersPage(5, 50, 120))).toEqual({ page: 5, pages: 3, total: 120, from: 0, to: 0, hasPrev: true, hasNext: false });
  });
});
