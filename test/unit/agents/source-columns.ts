/** Source columns for analyst tests, as the explorer describes them (NOT NULL unless told otherwise). */
import type { SourceColumn } from '../../../shared/source-schema';

/** A column of MySQL type `type` (`decimal(10,2)`, `varchar(40)`), with its key mark. */
export const column = (
  name: string,
  type: string,
  key: SourceColumn['key'] = '',
  nullable = false,
): SourceColumn => ({ name, type, data_type: type.replace(/\(.*$/, ''), nullable, key });
