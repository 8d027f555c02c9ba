package graph

import (
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestContextualParameters: a TypeScript function written as the value of
// an object literal's member takes, for its untyped parameters, the types
// the project's declarations of that member give them, as the compiler
// does when the literal is of such a type; a name an object pattern takes
// from a typed value is a use of that type's member, and so is each use
// of the local it binds. Two declarations of the member that disagree
// select the member their types share.
func TestContextualParameters(t *testing.T) {
	needSyntax(t)
	files := map[string]string{
		"src/api.ts": `export interface LifecycleApi {
  getState(): number
}
export interface QueryApi extends LifecycleApi {
  queryFulfilled: Promise<void>
}
export interface MutationApi extends LifecycleApi {}
export interface QueryOptions {
  onAdded?(arg: string, api: QueryApi): void
  effect: (action: string, api: LifecycleApi) => void
}
export interface MutationOptions {
  onAdded?(arg: string, api: MutationApi): void
}
export class Store {
  getState(): number {
    return 0
  }
}
export function start(o: QueryOptions) {}
`,
		"src/tests/api.test.ts": `import { start } from '../api'

test('options', () => {
  start({
    onAdded(arg, { getState }) {
      getState()
    },
    effect: (action, listenerApi) => {
      listenerApi.getState()
    },
  })
})
`,
		"src/typed.ts": `import { LifecycleApi } from './api'

export function typed({ getState }: LifecycleApi) {
  return getState()
}
`,
	}
	p := wholeIndexed(t, testtool.WriteTree(t, files))
	defer p.Close()
	wantUses(t, p, []useCase{
		{"LifecycleApi.getState", []string{
			"reference src/tests/api.test.ts:5", "call src/tests/api.test.ts:6", "call src/tests/api.test.ts:9",
			"reference src/typed.ts:3", "call src/typed.ts:4"}},
		{"Store.getState", nil},
	}, evidence.Reference, evidence.Call)
	wantNamedEqualsWhole(t, files)
}
