import { Search } from 'lucide-react';
import { useState } from 'react';
import { ADDRESS_PATTERN as ADDRESS } from '../../../src-shared/schema/common';
import { useRouter } from '../router/routes';

/**
 * Finds a token: an address opens its page at once; a name or symbol opens the launches filtered by it.
 */
export function HeaderSearch() {
  const navigate = useRouter((store) => store.navigate);
  const [text, setText] = useState('');
  return (
    <search className="w-full max-w-md">
      <form
        className="relative"
        onSubmit={(event) => {
          event.preventDefault();
          const query = text.trim();
          if (!query) return;
          navigate(ADDRESS.test(query) ? `/token/${query}` : `/?q=${encodeURIComponent(query)}`);
          setText('');
        }}
      >
        <Search
          size={16}
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted"
        />
        <input
          type="search"
          aria-label="Search tokens by address, name or symbol"
          placeholder="Search token address, name or symbol"
          data-testid="header-search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          className="!pl-9"
        />
      </form>
    </search>
  );
}
