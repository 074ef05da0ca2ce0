import type { ReactNode } from 'react';
import { useImageInfo } from '../api/get-image-info';
import { coordinates, dateLines, exposureLine, fileSize, openStreetMapUrl, pixelSize } from './info-format';

/** The info panel's body (its own chunk: loaded the first time someone opens the panel). */
export function InfoDetails({ imageId }: { imageId: string }) {
  const info = useImageInfo(imageId);
  if (info.isPending) return <p role="status" className="text-sm text-slate-500">Loading...</p>;
  if (info.isError) return <p role="alert" className="text-sm text-red-700">The info could not be loaded.</p>;
  const data = info.data;
  const when = dateLines(data);
  const camera = [data.camera, data.lens].filter(Boolean);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      <Row term="Date">
        {when.date}
        {when.note ? <span className="block text-slate-500">{when.note}</span> : null}
      </Row>
      {data.camera ? <Row term="Camera">{data.camera}</Row> : null}
      {data.lens ? <Row term="Lens">{data.lens}</Row> : null}
      {camera.length === 0 ? <Row term="Camera">Not recorded</Row> : null}
      <OptionalRow term="Exposure" value={exposureLine(data)} />
      <OptionalRow term="Size" value={pixelSize(data.width, data.height)} />
      <Row term="File size">{fileSize(data.fileSize)}</Row>
      <Row term="File name">
        <span className="break-all">{data.fileName}</span>
      </Row>
      {data.place ? (
        <Row term="Place">
          {coordinates(data.place)}
          <a
            href={openStreetMapUrl(data.place)}
            target="_blank"
            rel="noopener noreferrer"
            className="block text-indigo-700 underline hover:text-indigo-900"
          >
            Open in OpenStreetMap
          </a>
        </Row>
      ) : null}
    </dl>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-500">{term}</dt>
      <dd className="min-w-0 text-slate-900">{children}</dd>
    </>
  );
}

function OptionalRow({ term, value }: { term: string; value: string | null }) {
  return value ? <Row term={term}>{value}</Row> : null;
}
