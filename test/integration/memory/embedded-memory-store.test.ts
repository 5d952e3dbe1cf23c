/** The embedded memory store passes the same contract as every store (rows in SQLite, int16 SIMD index). */
import { openEmbeddedMemoryStore } from '../../../activities/memory/store/embedded-memory-store';
import { newTestDataDir } from '../../harness/platform-gateway';
import { memoryStoreContract } from './memory-store-contract';

memoryStoreContract('embedded', () => openEmbeddedMemoryStore(newTestDataDir()));
