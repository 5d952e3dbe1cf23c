"""The connectorx baseline: read a MySQL table into Arrow with connectorx, write it as zstd Parquet
with pyarrow, and print {"rows": N, "seconds": S} (the time excludes starting Python).

usage: ingest_connectorx.py URI TABLE KEY PARTITIONS OUT_FILE
"""
import json
import sys
import time

import connectorx as cx
import pyarrow.parquet as pq


def main() -> None:
    uri, table, key, partitions, out_file = sys.argv[1:6]
    parts = int(partitions)
    started = time.perf_counter()
    options = {"partition_on": key, "partition_num": parts} if parts > 1 else {}
    data = cx.read_sql(uri, f"SELECT * FROM `{table}`", return_type="arrow", **options)
    pq.write_table(data, out_file, compression="zstd")
    seconds = time.perf_counter() - started
    print(json.dumps({"rows": data.num_rows, "seconds": seconds}))


if __name__ == "__main__":
    main()
