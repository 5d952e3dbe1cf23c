/** S3 helpers: upload one file, delete everything under a prefix. */
import {
  DeleteObjectsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import * as fs from 'node:fs';

/** Uploads a local file (streamed, one PutObject: up to S3's 5 GB single-object limit). */
export async function uploadFile(
  s3: S3Client,
  bucket: string,
  key: string,
  file: string,
  tags: Record<string, string> = {},
): Promise<number> {
  const bytes = fs.statSync(file).size;
  const tagging = new URLSearchParams(tags).toString();
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: fs.createReadStream(file),
      ContentLength: bytes,
      ...(tagging ? { Tagging: tagging } : {}),
    }),
  );
  return bytes;
}

/** Deletes every object whose key starts with `prefix`; resolves with how many there were. */
export async function deletePrefix(s3: S3Client, bucket: string, prefix: string): Promise<number> {
  if (!prefix) throw new Error('refusing to delete a whole bucket');
  let deleted = 0;
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }),
    );
    const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (keys.length) {
      const res = await s3.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
      );
      const [failed] = res.Errors ?? [];
      if (failed)
        throw new Error(`S3 could not delete s3://${bucket}/${failed.Key}: ${failed.Message ?? failed.Code}`);
      deleted += keys.length;
    }
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return deleted;
}
