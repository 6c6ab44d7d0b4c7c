/** Receipts and files attached to entries and bank lines. */
export const attachments = {
  attachments: {
    title: 'Receipts and files',
    listOf: 'Files of {name}',
    none: 'No files attached yet.',
    attach: 'Attach files…',
    attachTo: 'Attach files to {name}',
    dropHint: 'PDF, JPEG, PNG or HEIC, up to 20 MB each, at most {n}; or drop files here.',
    preview: 'Preview of {name}',
    kind: '{kind} file',
    open: 'Open',
    save: 'Save',
    download: 'Save {name}',
    delete: 'Delete',
    deleteLabel: 'Delete {name}',
    confirmDelete: 'Delete {name}?',
    working: 'Working on the files…',
    count: '{n} files attached',
    unsupported: 'Only PDF, JPEG, PNG and HEIC files can be attached; this file is none of these.',
    tooLarge: 'This file is over 20 MB; attach a smaller copy.',
    limit: 'No room for more files here: an entry or bank line holds 10, and your files 2 GB in all.',
  },
} as const;
