/** The advisor panel. */
export const chat = {
  chat: {
    toggle: 'Advisor',
    title: 'Advisor',
    close: 'Close the advisor',
    unavailable: 'The local model ({model}) is not available, so the built-in advisor answers from your books.',
    sessions: 'Conversations ({count})',
    newConversation: 'New conversation',
    noSessions: 'No conversations yet.',
    deleteSession: 'Delete conversation "{title}"',
    conversation: 'Conversation with the advisor',
    intro:
      'Ask about your money: balances, spending, income, reconciliation. Answers use your own ledger and stay on this computer.',
    you: 'You',
    advisor: 'Advisor',
    thinking: 'Thinking…',
    stopped: '(stopped)',
    suggestions: 'Suggested questions',
    question: 'Your question',
    placeholder: 'Ask a question… (Enter sends, Shift+Enter for a new line)',
    send: 'Send',
    stop: 'Stop',
    unverified: "unverified: not found in your books' figures",
  },
} as const;
