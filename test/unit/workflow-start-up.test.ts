/**
 * What a workflow evaluates when it starts (docs/architecture.md#workflow-start-up): the workflow
 * modules load without the PRD schema, which the approval gate loads on the first edit it checks.
 */
describe('workflow start-up', () => {
  it('loads the workflow modules without zod', () => {
    const loaded: string[] = [];
    jest.isolateModules(() => {
      jest.doMock('zod', () => {
        loaded.push('zod');
        return jest.requireActual('zod');
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded inside the isolated registry
      require('../../workflows');
    });
    expect(loaded).toEqual([]);
  });
});
