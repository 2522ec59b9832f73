// The component tests' setup (vitest.config.mts, project "dom"): jest-dom's matchers, and each
// test starts from an empty document (Testing Library unmounts by itself only with vitest's globals).
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(cleanup);
