import { Dialog } from "../../ui/dialog";
import type { GraphNode } from "./graph-model";
import { initialValue, type OpenApiDocument } from "./json-schema";
import { NodeForm } from "./node-editor";
import type { NodeFamily } from "./node-families";
import type { NodeMutations } from "./use-node-mutations";

/** The form of a new node of the family being added; the node takes `from` as its input. */
export function AddNodeDialog(props: {
  doc: OpenApiDocument;
  adding: NodeFamily | null;
  from: GraphNode | undefined;
  create: NodeMutations["create"];
  onClose: () => void;
}) {
  const { adding, create, doc } = props;
  return (
    <Dialog
      title={adding ? `New ${adding.label.toLowerCase()}` : ""}
      open={adding !== null}
      onClose={props.onClose}
    >
      {adding && (
        <NodeForm
          doc={doc}
          family={adding}
          mode="create"
          initial={initialValue(doc, adding.createSchema)}
          pending={create.isPending}
          error={create.error}
          onCancel={props.onClose}
          onSubmit={(body) => {
            const from = props.from;
            const inputNodes = from ? [{ nodeType: from.nodeType, nodeId: from.recordId }] : [];
            create.mutate({ family: adding, body: { ...(body as object), inputNodes } });
          }}
        />
      )}
    </Dialog>
  );
}
