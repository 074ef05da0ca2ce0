import { z } from 'zod';
import { defineCall } from './call.js';
import { id, idParams, messageResponse, tagLookup, tagText } from './common.js';
import { image } from './images.js';

export const tagList = z.object({ tags: z.array(z.string()) });

export const getExistingTags = defineCall({
  method: 'GET', path: '/exisiting-tag', tag: 'tags', access: 'user',
  summary: 'The whole tag vocabulary (the path keeps the spec\'s spelling)',
  response: tagList,
});

export const tagsOfSelection = defineCall({
  method: 'POST', path: '/tags', tag: 'tags', access: 'user',
  summary: 'Tags of each selected image, and the tags common to all of them',
  body: z.object({ imageIds: z.array(id).max(1000) }),
  response: z.object({
    uniqueTags: z.array(z.object({ imageId: id, filteredTags: z.array(z.string()) })),
    commantags: z.array(z.string()),
  }),
});

const tagsOnImages = z.object({ tags: z.array(tagText).min(1).max(50), imageIds: z.array(id).min(1).max(1000) });

export const addTags = defineCall({
  method: 'POST', path: '/add-tags', tag: 'tags', access: 'user',
  summary: 'Add tags to the selected images', body: tagsOnImages, response: messageResponse,
});

export const addUserTags = defineCall({
  method: 'POST', path: '/api/addUserTags', tag: 'tags', access: 'user',
  summary: 'Add custom tags to the selected images (search results)', body: tagsOnImages, response: messageResponse,
});

export const removeTag = defineCall({
  method: 'POST', path: '/remove-tag', tag: 'tags', access: 'user',
  summary: 'Remove tags from one image (at most 500 names per call)',
  body: z.object({ tagName: z.array(tagLookup).min(1).max(500), imageId: id }),
  response: messageResponse,
});

export const addTagToImage = defineCall({
  method: 'POST', path: '/images/:id/addTag', tag: 'tags', access: 'user',
  summary: 'Add one tag to one image',
  params: idParams,
  body: z.object({ tag: tagText }),
  response: z.object({ tags: z.array(z.string()) }),
});

export const taggedImageEntry = z.object({ image, tags: z.array(z.string()), tagName: z.string().optional() });

export const getUserTags = defineCall({
  method: 'GET', path: '/user-tags', tag: 'tags', access: 'user',
  summary: 'Tags the caller has used', response: z.object({ data: z.array(z.string()) }),
});

export const getMyTaggedImages = defineCall({
  method: 'GET', path: '/mytagged-imgs', tag: 'tags', access: 'user',
  summary: 'Images the caller tagged, with their tags', response: z.object({ data: z.array(taggedImageEntry) }),
});

export const SEARCH_SUGGESTION_MIN = 3;
export const IMAGE_TAG_SUGGESTION_MIN = 2;
export const BULK_TAG_SUGGESTION_MIN = 1;
export const MAX_TAG_SUGGESTIONS = 5;

export const searchSuggestions = defineCall({
  method: 'GET', path: '/api/search/suggestions', tag: 'tags', access: 'user',
  summary: 'Tags starting with the query, best first',
  query: z.object({ query: z.string().max(64).default('') }),
  response: z.array(z.string()),
});

export const headerSearchTags = defineCall({
  method: 'POST', path: '/api/headerSearchTags', tag: 'tags', access: 'user',
  summary: 'Images carrying the searched tag(s)',
  body: z.object({ query: z.union([z.string().max(200), z.array(z.string().max(64)).max(50)]) }),
  response: z.object({ images: z.array(image).optional(), message: z.string().optional() }),
});

export { idParams };
