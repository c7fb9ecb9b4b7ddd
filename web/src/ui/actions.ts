// Actions shared by the readers: open in the editor (POST /api/open), copy text.
import { api, ApiError } from '../api/client';
import { copyText } from './clipboard';
import type { ToastKind } from './Toasts';

type Toast = (text: string, kind?: ToastKind) => void;

export async function openInEditor(filepath: string, toast: Toast): Promise<void> {
  try {
    const res = await api.open(filepath);
    toast(res.success ? 'Opened in your editor' : 'The editor did not open', res.success ? 'success' : 'error');
  } catch (error) {
    if (error instanceof ApiError && error.status === 500) {
      toast('No application could open the file (is an editor set for .md files?)', 'error');
    } else if (error instanceof ApiError && error.status === 400) {
      toast('The service no longer knows this file; it may have been moved or deleted', 'error');
    } else {
      toast('Could not reach the service to open the file', 'error');
    }
  }
}

export async function copyWithToast(text: string, what: string, toast: Toast): Promise<void> {
  const ok = await copyText(text);
  toast(ok ? `Copied ${what}` : 'Could not copy to the clipboard', ok ? 'success' : 'error');
}
