/**
 * The stack most API, UI and security suites run against: a dev server with the real platform worker
 * and the real gateway, both on one fresh data directory of this run.
 */
import { dataDirDeps } from '../../workers/platform-activities';
import { apiCaller, type ApiCall } from './api-caller';
import { newTestDataDir, startTestGateway, type TestGateway } from './platform-gateway';
import { devServerWithPlatformWorker, type DevServerWithWorker } from './temporal-envs';

/** A running worker and gateway sharing `dataDir`; `stop` ends the gateway first, then the worker. */
export interface PlatformStack {
  stack: DevServerWithWorker;
  gateway: TestGateway;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the worker polling `taskQueue` and a gateway sending to it, over one new data directory. */
export async function startPlatformStack(
  taskQueue: string,
  gatewayOptions: Omit<Parameters<typeof startTestGateway>[0], 'client' | 'taskQueue' | 'dataDir'> = {},
): Promise<PlatformStack> {
  const dataDir = newTestDataDir();
  const stack = await devServerWithPlatformWorker(taskQueue, await dataDirDeps(dataDir));
  const gateway = await startTestGateway({ client: stack.env.client, taskQueue, dataDir, ...gatewayOptions });
  return {
    stack,
    gateway,
    dataDir,
    async stop() {
      await gateway.stop();
      await stack.stop();
    },
  };
}

/**
 * A platform stack started in `beforeAll` and stopped in `afterAll` of the enclosing `describe`, and
 * an API caller for its gateway. Hooks run in the order they are declared: declare an `afterAll` that
 * must run while the gateway is still up (closing a browser on it) before calling this.
 */
export function platformStackPerSuite(
  taskQueue: string,
  gatewayOptions?: Parameters<typeof startPlatformStack>[1],
): { readonly current: PlatformStack; call: ApiCall } {
  let running: PlatformStack | undefined;
  beforeAll(async () => {
    running = await startPlatformStack(taskQueue, gatewayOptions);
  });
  afterAll(async () => {
    await running?.stop();
  });
  const current = (): PlatformStack => {
    if (!running) throw new Error('the platform stack starts in beforeAll');
    return running;
  };
  return {
    get current() {
      return current();
    },
    call: apiCaller(() => current().gateway.base),
  };
}
