/**
 * The upload modal's view_submission listener. The ack carries the answer (errors under the file input, a view
 * with the refusal, or nothing to close the modal); the upload itself runs after it.
 */
import type { App } from '@slack/bolt';
import { uploadProblemView } from '../../render/upload-modal.js';
import type { AppDeps } from '../deps.js';
import { errorSummary } from '../guard.js';
import type { UploadService } from '../upload/service.js';
import { submitUpload, type UploadAck } from '../usecases/upload.js';
import { UPLOAD_CALLBACK_ID } from '../../render/ids.js';

export function registerUploadView(app: App, deps: AppDeps & { uploads: UploadService }): void {
  app.view({ callback_id: UPLOAD_CALLBACK_ID, type: 'view_submission' }, async ({ ack, body, view, client }) => {
    let acked = false;
    const once = async (response: UploadAck) => {
      if (acked) return;
      acked = true;
      await (response ? ack(response as never) : ack());
    };
    try {
      const budgetMs = deps.uploads.tuning.ackBudgetMs;
      await submitUpload(deps, { view: view as never, userId: body.user.id, client, ack: once }, budgetMs);
    } catch (err) {
      deps.logger.error({ err: errorSummary(err) }, 'upload submission crashed');
      await once({
        response_action: 'update',
        view: uploadProblemView(
          "Something unexpected went wrong; the details are in the app's logs. Nothing was sent.",
        ),
      });
    }
  });
}
