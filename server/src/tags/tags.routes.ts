import { type ResponseOf, calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, PreSerialized, registerCall } from '../http/route.js';
import type { TagAdminService } from './tag-admin.service.js';
import type { TagsService } from './tags.service.js';

/** What the route's serializer would do: check against the contract, then stringify. */
const serializeFilter = (answer: ResponseOf<typeof calls.headerSearchTags>) => JSON.stringify(calls.headerSearchTags.response.parse(answer));

export function registerTagRoutes(app: FastifyInstance, authenticate: Authenticate, tags: TagsService): void {
  registerCall(app, authenticate, calls.getExistingTags, ({ user }) => tags.vocabulary(user));
  registerCall(app, authenticate, calls.tagsOfSelection, ({ user, body }) => tags.ofSelection(user, body.imageIds));
  registerCall(app, authenticate, calls.addTags, ({ user, body }) => tags.add(user, body.imageIds, body.tags, 'tag'));
  registerCall(app, authenticate, calls.addUserTags, ({ user, body }) => tags.add(user, body.imageIds, body.tags, 'custom'));
  registerCall(app, authenticate, calls.removeTag, ({ user, body }) => tags.remove(user, body.imageId, body.tagName));
  registerCall(app, authenticate, calls.addTagToImage, ({ user, params, body }) => tags.addOne(user, params.id, body.tag));
  registerCall(app, authenticate, calls.getUserTags, ({ user }) => tags.usedBy(user));
  registerCall(app, authenticate, calls.getMyTaggedImages, ({ user }) => tags.taggedBy(user));
  registerCall(app, authenticate, calls.searchSuggestions, async ({ user, query }) => new PreSerialized(await tags.suggestionsJson(user, query.query)));
  registerCall(app, authenticate, calls.headerSearchTags, async ({ user, body }) =>
    new PreSerialized(await tags.withAllTagsJson(user, body.query, serializeFilter)));
}

export function registerAdminTagRoutes(app: FastifyInstance, authenticate: Authenticate, admin: TagAdminService): void {
  registerCall(app, authenticate, calls.adminTags, () => admin.list());
  registerCall(app, authenticate, calls.adminUpdateTag, ({ body }) => admin.update(body.oldTagValue, body.newTagValue));
  registerCall(app, authenticate, calls.adminMergeTags, ({ body }) => admin.merge(body.oldTagValue, body.existingTagValue));
}
