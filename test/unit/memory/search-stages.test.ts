import { ALL_STAGES, searchStages } from '../../../domain/memory/search/search-stages';

describe('searchStages', () => {
  it('keeps every stage unless told otherwise', () => {
    expect(searchStages(undefined)).toEqual(ALL_STAGES);
    expect(searchStages('  ')).toEqual(ALL_STAGES);
  });

  it('keeps only the named stages; "none" or unknown names keep none', () => {
    expect(searchStages('none')).toEqual({ dates: false, neighbours: false, rerank: false });
    expect(searchStages('Rerank, neighbours')).toEqual({ dates: false, neighbours: true, rerank: true });
    expect(searchStages('dates+rerank')).toEqual({ dates: true, neighbours: false, rerank: true });
    expect(searchStages('bogus 東京')).toEqual({ dates: false, neighbours: false, rerank: false });
  });
});
