/** Search attributes that let the Temporal Web UI filter analysis projects by status and phase. */
import { defineSearchAttributeKey } from '@temporalio/common';

export const PROJECT_STATUS_ATTR = defineSearchAttributeKey('PlatProjectStatus', 'KEYWORD');
export const PROJECT_PHASE_ATTR = defineSearchAttributeKey('PlatProjectPhase', 'KEYWORD');

/** Every custom search attribute, for dev-server flags and cluster registration. */
export const PLAT_SEARCH_ATTRIBUTES = [PROJECT_STATUS_ATTR, PROJECT_PHASE_ATTR];
