import { afterEach, describe, expect, it, vi } from 'vitest';
import { guideProgress, markGuideStep, resetGuideProgressForTests, toggleGuideStep } from './guideProgress';

afterEach(() => resetGuideProgressForTests());

describe('guide progress', () => {
  it('marks steps once, in the guide order, and keeps them on this device', () => {
    markGuideStep('create');
    markGuideStep('signIn');
    markGuideStep('create');
    expect(guideProgress()).toEqual(['signIn', 'create']);
    expect(JSON.parse(localStorage.getItem('hibiki.guideProgress')!)).toEqual(['signIn', 'create']);
    resetGuideProgressForTests();
    expect(guideProgress()).toEqual(['signIn', 'create']);
  });

  it('the checkboxes untick and tick again', () => {
    markGuideStep('test');
    toggleGuideStep('test');
    expect(guideProgress()).toEqual([]);
    toggleGuideStep('install');
    expect(guideProgress()).toEqual(['install']);
  });

  it('reads what older versions stored and ignores what it does not know', () => {
    localStorage.setItem('hibiki.guideProgress', JSON.stringify(['enable', 'bogus', 3, 'install']));
    expect(guideProgress()).toEqual(['install', 'enable']);
    vi.spyOn(Storage.prototype, 'getItem').mockReturnValue('{not json');
    resetGuideProgressForTests();
    expect(guideProgress()).toEqual([]);
  });
});
