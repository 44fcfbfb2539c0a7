import { type ReactNode, useEffect, useRef } from "react";

/** A modal `<dialog>`: focus moves in, Escape closes it, focus returns where it was. */
export function Dialog(props: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} onClose={props.onClose} aria-labelledby="dialog-title">
      {props.open && (
        <>
          <div className="dialog-head">
            <h2 id="dialog-title" style={{ margin: 0 }}>
              {props.title}
            </h2>
            <button type="button" className="btn btn-ghost btn-sm" onClick={props.onClose}>
              Close
            </button>
          </div>
          <div className="dialog-body">{props.children}</div>
          {props.footer && <div className="dialog-foot">{props.footer}</div>}
        </>
      )}
    </dialog>
  );
}
