import "@xyflow/react/dist/style.css";
import "./styles.css";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { SessionProvider } from "./api/api-context";
import { ApiError } from "./api/client";
import { App } from "./app/app";
import { ToastProvider } from "./ui/toast";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // 4xx answers will not change by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.statusCode < 500) && count < 2,
    },
  },
});

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <SessionProvider>
            <App />
          </SessionProvider>
        </ToastProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
